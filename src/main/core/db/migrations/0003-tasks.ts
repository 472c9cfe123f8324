import type { Db } from '../sqlite';

export const name = '0003-tasks';

/** Tasks (imported from Claw-Eval for now) with their fixture files kept verbatim. */
export function up(db: Db): void {
  db.exec(`
    CREATE TABLE tasks (
      task_id      TEXT PRIMARY KEY,
      name         TEXT NOT NULL,
      origin       TEXT NOT NULL CHECK (origin IN ('generated', 'imported', 'manual')),
      split        TEXT NOT NULL,
      category     TEXT NOT NULL,
      difficulty   TEXT NOT NULL,
      language     TEXT NOT NULL,
      services     TEXT NOT NULL,   -- JSON array of service ids
      tools        TEXT NOT NULL,   -- JSON array of tool names
      warnings     TEXT NOT NULL,   -- JSON array of import warnings (upstream quirks)
      version      INTEGER NOT NULL,
      content_hash TEXT NOT NULL,
      spec         TEXT NOT NULL,   -- JSON: the task.yaml model, unknown fields kept
      source_yaml  TEXT NOT NULL,   -- the task.yaml text as imported, for lossless re-export
      source_path  TEXT NOT NULL,
      created_at   TEXT NOT NULL,
      updated_at   TEXT NOT NULL
    ) STRICT;
    CREATE INDEX tasks_name       ON tasks (name);
    CREATE INDEX tasks_split      ON tasks (split);
    CREATE INDEX tasks_category   ON tasks (category);
    CREATE INDEX tasks_difficulty ON tasks (difficulty);
    CREATE INDEX tasks_language   ON tasks (language);
    CREATE INDEX tasks_services   ON tasks (services);

    -- Fixture files verbatim: the text keeps Python's int/float distinction (328.0 ≠ 328).
    CREATE TABLE task_fixtures (
      task_id     TEXT NOT NULL REFERENCES tasks (task_id) ON DELETE CASCADE,
      service     TEXT NOT NULL,
      fixture_env TEXT NOT NULL,     -- the env var upstream reads it from (web has two)
      set_by_task INTEGER NOT NULL,  -- 0: the task sets no such var, upstream loads the default path
      source      TEXT NOT NULL,     -- root-relative path as upstream reads it
      content     TEXT NOT NULL,
      records     INTEGER NOT NULL,
      PRIMARY KEY (task_id, service, fixture_env)
    ) STRICT;

    -- Every version a task has had (import, re-import, fixture edit): what it was, and why it changed.
    CREATE TABLE task_versions (
      task_id      TEXT NOT NULL REFERENCES tasks (task_id) ON DELETE CASCADE,
      version      INTEGER NOT NULL,
      content_hash TEXT NOT NULL,
      reason       TEXT NOT NULL,
      fixtures     TEXT NOT NULL,   -- JSON: {service: fixture text}
      created_at   TEXT NOT NULL,
      PRIMARY KEY (task_id, version)
    ) STRICT;
  `);
}
