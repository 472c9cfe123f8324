import type { Db } from '../sqlite';

export const name = '0028-task-merge';

/**
 * A bucket-filtered trajectories grid read task by task (issue 21 item 11; src/main/core/db/group-merge.ts,
 * bench/grid-bucket.bench.ts).
 *
 * On imported data the bucket follows the sort: UNSOLVABLE attempts share reward 0, TRIVIAL ones 1, and every
 * row of a workspace may share its model and collection. Walking a sort column's index and testing each
 * entry's task passed ~500,000 rows of other buckets, and sorts by model or collection sorted every match
 * (seconds). The grid now seeks each task of the bucket once in (task_id, column) — entries in the column's
 * order, then the row id, as the grid orders them — and merges the tasks' first rows (group-merge.ts).
 *
 * The bucket stays on curation_tasks only (0013): re-assigning a task writes its one row, never its
 * trajectories. curation_tasks_bucket_task lists a bucket's tasks without reading their rows.
 * trajectory_task_rows counts each task's trajectories (all of them: the grid shows every row), kept by
 * triggers, so a bucket's row count is a sum over its tasks instead of an index walk over its rows.
 */
export function up(db: Db): void {
  db.exec(`
    CREATE INDEX trajectories_task_source_reward ON trajectories (task_id, source_reward);
    CREATE INDEX trajectories_task_score         ON trajectories (task_id, score);
    CREATE INDEX trajectories_task_model         ON trajectories (task_id, model);
    CREATE INDEX trajectories_task_collection    ON trajectories (task_id, collection);
    CREATE INDEX trajectories_task_created_at    ON trajectories (task_id, created_at);
    CREATE INDEX curation_tasks_bucket_task      ON curation_tasks (bucket, task_id);

    CREATE TABLE trajectory_task_rows (
      task_id TEXT PRIMARY KEY,
      n       INTEGER NOT NULL CHECK (n >= 0)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO trajectory_task_rows (task_id, n) SELECT task_id, count(*) FROM trajectories GROUP BY task_id;

    CREATE TRIGGER trajectory_task_rows_insert AFTER INSERT ON trajectories BEGIN
      INSERT INTO trajectory_task_rows (task_id, n) VALUES (new.task_id, 1)
        ON CONFLICT (task_id) DO UPDATE SET n = n + 1;
    END;
    CREATE TRIGGER trajectory_task_rows_delete AFTER DELETE ON trajectories BEGIN
      UPDATE trajectory_task_rows SET n = n - 1 WHERE task_id = old.task_id;
    END;
    CREATE TRIGGER trajectory_task_rows_move AFTER UPDATE OF task_id ON trajectories
      WHEN old.task_id IS NOT new.task_id BEGIN
      UPDATE trajectory_task_rows SET n = n - 1 WHERE task_id = old.task_id;
      INSERT INTO trajectory_task_rows (task_id, n) VALUES (new.task_id, 1)
        ON CONFLICT (task_id) DO UPDATE SET n = n + 1;
    END;
  `);
}
