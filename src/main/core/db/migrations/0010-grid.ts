import type { Db } from '../sqlite';

export const name = '0010-grid';

/**
 * The grid layer's storage:
 * - grid_trash: rows removed by "delete by filter", kept per batch so the grid's Ctrl+Z restores them.
 * - Sorting an enum by its declared order (easy, medium, hard): an index on the exact rank
 *   expression that sql-filter's enumRank() writes, so ORDER BY <rank>, id LIMIT n walks it.
 * - tasks_fts: the tasks grid's quick search over names and prompts (trigram: substrings, Chinese
 *   included), kept in step with tasks by triggers.
 * - validation_reports keep the rounds of every task version (an edit no longer erases them): the
 *   key gains task_version; existing rows belong to their task's current version.
 */
export function up(db: Db): void {
  const rank = (col: string, order: string[]) =>
    `(CASE ${col} ${order.map((v, i) => `WHEN '${v}' THEN ${i}`).join(' ')} ELSE ${order.length} END)`;
  const difficulty = rank('difficulty', ['easy', 'medium', 'hard']);
  const scenario = rank('scenario', ['single_service', 'cross_service', 'safety', 'temporal', 'multi_turn']);
  db.exec(`
    CREATE TABLE grid_trash (
      batch      TEXT NOT NULL,
      table_name TEXT NOT NULL,
      row        TEXT NOT NULL,   -- JSON object: the row's columns by name
      deleted_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX grid_trash_batch ON grid_trash (batch);

    CREATE INDEX coverage_slots_difficulty_rank ON coverage_slots (${difficulty});
    CREATE INDEX coverage_slots_scenario_rank   ON coverage_slots (${scenario});
    CREATE INDEX tasks_difficulty_rank          ON tasks (${difficulty});

    CREATE VIRTUAL TABLE tasks_fts USING fts5(task_id, name, prompt, tokenize = 'trigram');
    INSERT INTO tasks_fts (rowid, task_id, name, prompt)
      SELECT rowid, task_id, name, coalesce(spec ->> '$.prompt.text', '') FROM tasks;
    CREATE TRIGGER tasks_fts_insert AFTER INSERT ON tasks BEGIN
      INSERT INTO tasks_fts (rowid, task_id, name, prompt)
        VALUES (new.rowid, new.task_id, new.name, coalesce(new.spec ->> '$.prompt.text', ''));
    END;
    CREATE TRIGGER tasks_fts_update AFTER UPDATE OF task_id, name, spec ON tasks BEGIN
      DELETE FROM tasks_fts WHERE rowid = old.rowid;
      INSERT INTO tasks_fts (rowid, task_id, name, prompt)
        VALUES (new.rowid, new.task_id, new.name, coalesce(new.spec ->> '$.prompt.text', ''));
    END;
    CREATE TRIGGER tasks_fts_delete AFTER DELETE ON tasks BEGIN
      DELETE FROM tasks_fts WHERE rowid = old.rowid;
    END;

    CREATE TABLE validation_reports_new (
      task_id      TEXT NOT NULL REFERENCES tasks (task_id) ON DELETE CASCADE,
      task_version INTEGER NOT NULL,
      round        INTEGER NOT NULL,
      valid        INTEGER NOT NULL CHECK (valid IN (0, 1)),
      verdicts     TEXT NOT NULL,
      diff         TEXT NOT NULL,
      candidate    TEXT NOT NULL,
      created_at   TEXT NOT NULL,
      PRIMARY KEY (task_id, task_version, round)
    ) STRICT;
    INSERT INTO validation_reports_new
      SELECT r.task_id, t.version, r.round, r.valid, r.verdicts, r.diff, r.candidate, r.created_at
      FROM validation_reports r JOIN tasks t USING (task_id);
    DROP TABLE validation_reports;
    ALTER TABLE validation_reports_new RENAME TO validation_reports;
  `);
}
