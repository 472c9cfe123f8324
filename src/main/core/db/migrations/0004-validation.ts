import type { Db } from '../sqlite';

export const name = '0004-validation';

/**
 * Validation (DESIGN.md §6): each task's status in the grid, and its latest report — one row per
 * round (a repair loop has two), with every validator's verdict and the diff from the round before.
 */
export function up(db: Db): void {
  db.exec(
    `
    ALTER TABLE tasks ADD COLUMN validation_status TEXT NOT NULL DEFAULT 'unvalidated' ` +
      `CHECK (validation_status IN ('valid', 'invalid', 'unvalidated'));
    ALTER TABLE tasks ADD COLUMN failed_validator TEXT;
    CREATE INDEX tasks_validation_status ON tasks (validation_status);
    CREATE INDEX tasks_failed_validator  ON tasks (failed_validator);

    CREATE TABLE validation_reports (
      task_id    TEXT NOT NULL REFERENCES tasks (task_id) ON DELETE CASCADE,
      round      INTEGER NOT NULL,
      valid      INTEGER NOT NULL CHECK (valid IN (0, 1)),
      verdicts   TEXT NOT NULL,   -- JSON: [{validator, status, messages: [{field, message}]}]
      diff       TEXT NOT NULL,   -- unified diff of the candidate's JSON against the round before ('' for round 1)
      candidate  TEXT NOT NULL,   -- JSON: the spec this round validated (a discarded retry is kept here, not in tasks)
      created_at TEXT NOT NULL,
      PRIMARY KEY (task_id, round)
    ) STRICT;
  `,
  );
}
