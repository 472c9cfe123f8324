import type { Db } from '../sqlite';

export const name = '0013-bucket-join';

/**
 * The bucket belongs to the task (issue 11; src/main/core/curation/README.md, INTERFACE).
 *
 * - trajectories.bucket (a copy of curation_tasks.bucket, kept equal at every commit) is dropped with
 *   its index: re-assigning 5,000 tasks rewrote 100,000 trajectory rows spread over every page of the
 *   table (bench/README.md, Curation). The grid, the export and the curation state read the task's
 *   bucket by task_id instead. A task whose trajectories carried a bucket but which has no curation
 *   row (not possible while settle ran before every commit; kept for safety) gets one, so no decision
 *   is lost; its statistics are recomputed at the next open.
 * - (model, score, task_id) replaces 0012's (model, score, bucket): the trajectories grid's bucket +
 *   model filter with a score sort walks it for model = ? in score order and tests the task id against
 *   the bucket's tasks without reading rows; its count is covered too.
 * - curation_tasks keeps the running sums its statistics are made of (value_sum, value_sq_sum,
 *   score_sum, score_n) and the greatest trajectory id they have read (last_id), so settling adds a
 *   batch's new rows to them instead of reading every row of each touched task (settle.ts).
 * - curation_added lists the trajectories inserted since the last settle (insert trigger); updates
 *   and deletes still list their task in curation_dirty (full recompute of that task). Every task is
 *   listed dirty here: the sums are filled by the settle at the next open.
 */
export function up(db: Db): void {
  db.exec(`
    INSERT INTO curation_tasks (task_id, attempts, scored, passes, pass_known, bucket, stats_at)
      SELECT task_id, 0, 0, 0, 0, max(bucket), strftime('%Y-%m-%dT%H:%M:%fZ') FROM trajectories t
      WHERE bucket IS NOT NULL AND NOT EXISTS (SELECT 1 FROM curation_tasks c WHERE c.task_id = t.task_id)
      GROUP BY task_id;
    DROP INDEX IF EXISTS trajectories_model_score_bucket;
    DROP INDEX IF EXISTS trajectories_bucket_model_score;
    ALTER TABLE trajectories DROP COLUMN bucket;
    CREATE INDEX trajectories_model_score_task ON trajectories (model, score, task_id);

    ALTER TABLE curation_tasks ADD COLUMN value_sum REAL;      -- sum of the scored values, in trajectory id order
    ALTER TABLE curation_tasks ADD COLUMN value_sq_sum REAL;   -- sum of their squares, likewise
    ALTER TABLE curation_tasks ADD COLUMN score_sum REAL;      -- sum of the attempts' scores (mean_score's numerator)
    ALTER TABLE curation_tasks ADD COLUMN score_n INTEGER NOT NULL DEFAULT 0;  -- attempts with a score
    ALTER TABLE curation_tasks ADD COLUMN last_id INTEGER;     -- the greatest trajectory id the sums have read

    CREATE TABLE curation_added (id INTEGER PRIMARY KEY) STRICT;
    DROP TRIGGER curation_dirty_insert;
    CREATE TRIGGER curation_added_insert AFTER INSERT ON trajectories BEGIN
      INSERT OR IGNORE INTO curation_added (id) VALUES (new.id);
    END;
    INSERT OR IGNORE INTO curation_dirty (task_id) SELECT DISTINCT task_id FROM trajectories;
  `);
}
