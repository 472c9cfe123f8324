import { parentPort } from 'node:worker_threads';
import { openDb, readHandle, type ReadDb } from '../db/sqlite';
import { AppError } from '../lib/errors';
import type { HelperEnv } from './job-definition';

/**
 * Queries that may take seconds on a large workspace, run in a query worker (off-thread.ts) instead of the core's
 * thread, by name. The composition root hands them in (rpc/off-thread-queries.ts), so this module knows no feature.
 */
export type OffThreadQueries = Record<string, (db: ReadDb, input: never) => unknown>;

export type QueryRequest = { id: number; name: string; input: unknown };
export type QueryReply =
  | { id: number; ok: true; data: unknown }
  | { id: number; ok: false; error: { code: string; message: string } };

/**
 * A query worker's body: its own read-only connection (WAL: it reads while the core and jobs write), one request
 * at a time, each in a read transaction so its passes see one snapshot of the workspace. Lives until terminated.
 */
export function queryHelperMain(queries: OffThreadQueries, env: HelperEnv): void {
  const db = openDb(env.workspacePath, {
    readOnly: true,
    check: false,
    ...(env.nativeBinding ? { nativeBinding: env.nativeBinding } : {}),
  });
  parentPort!.on('message', (m: QueryRequest) => {
    let reply: QueryReply;
    try {
      db.exec('BEGIN');
      try {
        const run = Object.hasOwn(queries, m.name) ? (queries[m.name] as (db: ReadDb, i: unknown) => unknown) : null;
        if (!run) throw new AppError('INTERNAL', `no off-thread query ${m.name}`);
        reply = { id: m.id, ok: true, data: run(readHandle(db), m.input) };
      } finally {
        db.exec('COMMIT');
      }
    } catch (err) {
      const code = err instanceof AppError ? err.code : ((err as { code?: string }).code ?? 'INTERNAL');
      reply = { id: m.id, ok: false, error: { code, message: (err as Error).message } };
    }
    parentPort!.postMessage(reply);
  });
}
