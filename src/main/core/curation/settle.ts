import { prepareCached, type ReadDb, type WriteDb } from '../db/sqlite';
import { addNewRows, recomputeStats } from './stats';

/**
 * Keeps curation true inside the transaction that changed trajectories (an import batch, a run's
 * batch, a delete, a re-grade): triggers (migrations 0011, 0013) list inserted trajectory ids in
 * curation_added and the tasks of updated or deleted ones in curation_dirty. New rows are added to
 * their tasks' stored sums (the cost of a batch is its own rows, however many rows its tasks already
 * have); dirty tasks are recomputed from all their rows. Both lists are then emptied. The dispatcher
 * and the job worker call it before every commit, so no writer of trajectories has to remember.
 * Answers whether anything was listed (then curation_tasks changed).
 */
export function settleCuration(db: WriteDb, now: string): boolean {
  if (!curationDirty(db)) return false;
  addNewRows(db, now);
  if (prepareCached(db, 'SELECT 1 FROM curation_dirty LIMIT 1').get() !== undefined) {
    recomputeStats(db, 'dirty', now);
    prepareCached(db, 'DELETE FROM curation_dirty').run();
  }
  prepareCached(db, 'DELETE FROM curation_added').run();
  return true;
}

/** Whether some trajectory or task waits for its statistics (a read: no lock needed). */
export const curationDirty = (db: ReadDb): boolean =>
  prepareCached(
    db,
    'SELECT 1 WHERE EXISTS (SELECT 1 FROM curation_dirty) OR EXISTS (SELECT 1 FROM curation_added)',
  ).get() !== undefined;
