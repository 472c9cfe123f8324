import { prepareCached, type WriteDb } from '../db/sqlite';
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
  if (!prepareCached(db, 'SELECT 1 FROM curation_dirty LIMIT 1').get()) return false;
  recomputeStats(db, 'dirty', now);
  syncTrajectoryBuckets(db, 'SELECT task_id FROM curation_dirty');
  prepareCached(db, 'DELETE FROM curation_dirty').run();
  return true;
}

/**
 * trajectories.bucket := the task's assigned bucket, for the tasks the subquery lists (the
 * INTERFACE export relies on: they are equal at every commit). Rows already right are not written.
 */
export function syncTrajectoryBuckets(db: WriteDb, tasksSql: string, ...params: unknown[]): number {
  return prepareCached(
    db,
    `UPDATE trajectories SET bucket = b.bucket
     FROM (SELECT task_id, (SELECT bucket FROM curation_tasks c WHERE c.task_id = x.task_id) AS bucket
           FROM (${tasksSql}) x) b
     WHERE trajectories.task_id = b.task_id AND trajectories.bucket IS NOT b.bucket`,
  ).run(...params).changes;
}
