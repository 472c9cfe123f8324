import type { CommitHook } from '../db/commit-hook';
import { settleCuration } from '../curation/settle';

/** Trajectories written by a commit: their tasks' curation statistics, before it commits. */
const curationStatistics: CommitHook = (db, now) => (settleCuration(db, now) ? ['curation_tasks'] : []);

/** What every commit runs, in the dispatcher and in job workers alike (db/commit-hook.ts). */
export const COMMIT_HOOKS: readonly CommitHook[] = [curationStatistics];
