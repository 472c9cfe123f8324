import type { Db } from '../sqlite';

export const name = '0001-init';

/** Coverage plan, jobs, change counters and workspace metadata. */
export function up(db: Db): void {
  db.exec(
    `
    CREATE TABLE workspace_meta (
      key   TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) STRICT;

    CREATE TABLE coverage_slots (
      id             INTEGER PRIMARY KEY,
      family         TEXT NOT NULL,
      services       TEXT NOT NULL,            -- JSON array of service ids, catalog order
      category       TEXT NOT NULL,
      difficulty     TEXT NOT NULL CHECK (difficulty IN ('easy', 'medium', 'hard')),
      language       TEXT NOT NULL CHECK (language IN ('en', 'zh')),
      reference_date TEXT NOT NULL,            -- YYYY-MM-DD
      scenario       TEXT NOT NULL,
      target_count   INTEGER NOT NULL CHECK (target_count >= 0),
      notes          TEXT NOT NULL DEFAULT '',
      created_at     TEXT NOT NULL,
      updated_at     TEXT NOT NULL
    ) STRICT;
    -- One index per sortable grid column: ORDER BY <col>, id LIMIT n walks the index (rowid breaks ties).
    CREATE INDEX coverage_slots_family         ON coverage_slots (family);
    CREATE INDEX coverage_slots_services       ON coverage_slots (services);
    CREATE INDEX coverage_slots_category       ON coverage_slots (category);
    CREATE INDEX coverage_slots_difficulty     ON coverage_slots (difficulty);
    CREATE INDEX coverage_slots_language       ON coverage_slots (language);
    CREATE INDEX coverage_slots_reference_date ON coverage_slots (reference_date);
    CREATE INDEX coverage_slots_scenario       ON coverage_slots (scenario);
    CREATE INDEX coverage_slots_target_count   ON coverage_slots (target_count);
    CREATE INDEX coverage_slots_updated_at     ON coverage_slots (updated_at);

    CREATE TABLE jobs (
      id               TEXT PRIMARY KEY,
      name             TEXT NOT NULL,
      input            TEXT NOT NULL,          -- JSON, validated by the contract
      state            TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', ` +
      `'failed', 'cancelled', 'interrupted')),
      done             INTEGER NOT NULL DEFAULT 0,  -- committed units: the resume cursor
      total            INTEGER NOT NULL DEFAULT 0,
      message          TEXT NOT NULL DEFAULT '',
      error            TEXT,
      cancel_requested INTEGER NOT NULL DEFAULT 0,
      owner            TEXT,                   -- pid:start of the process running it
      created_at       TEXT NOT NULL,
      updated_at       TEXT NOT NULL
    ) STRICT;
    CREATE INDEX jobs_created_at ON jobs (created_at);

    -- Bumped inside every write transaction; other processes compare them to tell grids what changed.
    CREATE TABLE table_versions (
      table_name TEXT PRIMARY KEY,
      version    INTEGER NOT NULL
    ) STRICT;
  `,
  );
}
