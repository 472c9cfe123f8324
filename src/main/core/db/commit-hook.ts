import type { WriteDb } from './sqlite';

/**
 * Work that must land in the same transaction as any write, wherever it is committed (a handler's
 * mutation in the dispatcher, a job's batch in its worker). Answers the tables it changed, so their
 * watchers hear of it. The writers call whatever hooks the composition root subscribed
 * (rpc/commit-hooks.ts) and know no feature themselves.
 */
export type CommitHook = (db: WriteDb, now: string) => readonly string[];
