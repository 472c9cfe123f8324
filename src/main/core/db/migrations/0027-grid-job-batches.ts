import type { Db } from '../sqlite';

export const name = '0027-grid-job-batches';

/**
 * Which slots a grid-generation job made, so the job can be undone (issue 21 item 10).
 *
 * One row per committed batch, written in the batch's own transaction: inside it nothing else
 * writes, so the batch's new ids are the contiguous run first_id..last_id. created_at is the
 * batch's timestamp: undo deletes a slot only if it still has it, so a later slot that reused a
 * deleted id (INTEGER PRIMARY KEY takes max + 1) is never taken for the job's. A resumed job
 * keeps adding rows under the same job id.
 */
export function up(db: Db): void {
  db.exec(`
    CREATE TABLE grid_job_batches (
      job_id     TEXT NOT NULL,
      first_id   INTEGER NOT NULL,
      last_id    INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (job_id, first_id)
    ) STRICT, WITHOUT ROWID;
  `);
}
