import { prepareCached, type ReadDb, type WriteDb } from '../db/sqlite';
import { recomputeStats } from './stats';

/**
 * Keeps curation true inside the transaction that changed trajectories (an import batch, a run's
 * batch, a delete, a re-grade): triggers of migration 0011 list the touched task ids in
 * curation_dirty; this recomputes those tasks' statistics and copies each task's assigned bucket onto
 * its new rows (export reads trajectories.bucket), then empties the list. The dispatcher and the job
 * worker call it before every commit, so no writer of trajectories has to remember. Answers whether
 * anything was dirty (then curation_tasks changed).
 */
export function settleCuration(db: WriteDb, now: string): boolean {
  if (!curationDirty(db)) return false;
  recomputeStats(db, 'dirty', now);
  syncTrajectoryBuckets(db, 'SELECT task_id FROM curation_dirty');
  prepareCached(db, 'DELETE FROM curation_dirty').run();
  return true;
}

/** Whether some task waits for its statistics (a read: no lock needed). */
export const curationDirty = (db: ReadDb): boolean =>
  prepareCached(db, 'SELECT 1 FROM curation_dirty LIMIT 1').get() !== undefined;

/** A trajectory's task's assigned bucket (NULL: none, or no curation row). */
const BUCKET = 'SELECT bucket FROM curation_tasks c WHERE c.task_id = trajectories.task_id';

/**
 * trajectories.bucket := the task's assigned bucket, for the tasks the subquery lists (the
 * INTERFACE export relies on: they are equal at every commit). Rows already right are not written.
 */
export function syncTrajectoryBuckets(db: WriteDb, tasksSql: string, ...params: unknown[]): number {
  return prepareCached(
    db,
    // task_id IN (…): the listed tasks' rows by the task index. The former UPDATE … FROM joined the
    // list to a scan of every trajectory — per settle, i.e. per import batch.
    `UPDATE trajectories SET bucket = (${BUCKET})
     WHERE task_id IN (${tasksSql}) AND bucket IS NOT (${BUCKET})`,
  ).run(...params).changes;
}
