import type { Db } from '../sqlite';

export const name = '0005-trajectories';

/**
 * Stored trajectories (DESIGN.md §3): the indexed columns the grid sorts and filters on, and the
 * bodies kept apart so grid queries stay small. task_id has no foreign key: a trace may be of a task
 * that was never imported (it is then stored ungraded).
 */
export function up(db: Db): void {
  db.exec(
    `
    CREATE TABLE trajectories (
      id              INTEGER PRIMARY KEY,
      task_id         TEXT NOT NULL,
      trace_id        TEXT NOT NULL,
      content_hash    TEXT NOT NULL,   -- sha256 of the trace text: same trace_id + hash = ` +
      `the same trace, not stored twice
      model           TEXT NOT NULL,
      source          TEXT NOT NULL CHECK (source IN ('trace-import')),
      message_count   INTEGER NOT NULL,
      tool_call_count INTEGER NOT NULL,
      char_count      INTEGER NOT NULL,
      completion      REAL,
      safety          REAL,
      robustness      REAL,
      score           REAL,
      passed          INTEGER CHECK (passed IN (0, 1)),
      graded          INTEGER NOT NULL CHECK (graded IN (0, 1)),   -- 0: the task was not in the workspace
      checks_origin   TEXT,
      created_at      TEXT NOT NULL
    ) STRICT;
    CREATE UNIQUE INDEX trajectories_trace ON trajectories (trace_id, content_hash);
    CREATE INDEX trajectories_task_id    ON trajectories (task_id);
    CREATE INDEX trajectories_model      ON trajectories (model);
    CREATE INDEX trajectories_score      ON trajectories (score);
    CREATE INDEX trajectories_passed     ON trajectories (passed);
    CREATE INDEX trajectories_created_at ON trajectories (created_at);

    CREATE TABLE trajectory_bodies (
      trajectory_id INTEGER PRIMARY KEY REFERENCES trajectories (id) ON DELETE CASCADE,
      trace         TEXT NOT NULL,   -- the trace JSONL as imported, so an export is byte-identical
      trajectory    TEXT NOT NULL,   -- the Trajectory JSON, written the Python way (328.0 stays 328.0)
      grade         TEXT             -- GradeResult JSON; NULL when ungraded
    ) STRICT;
  `,
  );
}
