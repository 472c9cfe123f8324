import type { Db } from '../sqlite';

export const name = '0007-endpoints';

/**
 * Model endpoints and the LLM generator's lineage. Keys are NOT here: an endpoint row says where
 * its key comes from (the OS keychain, an environment variable by name, or none) — see
 * core/endpoints/key-store.ts. Lineage keeps every prompt and answer of a generated task, with the
 * validators' verdicts and the repair diff; discarded candidates keep theirs too (their task_id
 * names no row in tasks, so there is no foreign key).
 */
export function up(db: Db): void {
  db.exec(`
    CREATE TABLE endpoints (
      id          INTEGER PRIMARY KEY,
      name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
      base_url    TEXT NOT NULL,
      model       TEXT NOT NULL,
      key_source  TEXT NOT NULL CHECK (key_source IN ('keychain', 'env', 'none')),
      key_env     TEXT,             -- env source: the variable's NAME, never its value
      temperature REAL,
      max_tokens  INTEGER,
      timeout_ms  INTEGER NOT NULL,
      json_mode   INTEGER CHECK (json_mode IN (0, 1)),   -- NULL: not known yet (endpoints.test finds out)
      tool_calls  INTEGER CHECK (tool_calls IN (0, 1)),
      last_test   TEXT,             -- JSON: the last endpoints.test result
      created_at  TEXT NOT NULL,
      updated_at  TEXT NOT NULL
    ) STRICT;

    CREATE TABLE task_lineage (
      id                INTEGER PRIMARY KEY,
      task_id           TEXT NOT NULL,
      round             INTEGER NOT NULL,
      kind              TEXT NOT NULL CHECK (kind IN ('generate', 'retry', 'repair')),
      prompt            TEXT NOT NULL,  -- JSON: the chat messages sent
      answer            TEXT,           -- the model's text as it came (NULL when the request failed)
      error             TEXT,           -- why this round produced no candidate (not JSON, timeout, HTTP error)
      verdicts          TEXT,           -- JSON: the validators' verdicts on this round's candidate
      diff              TEXT NOT NULL,  -- unified diff of the candidate against the round before ('' for the first)
      endpoint          TEXT NOT NULL,
      model             TEXT NOT NULL,
      prompt_tokens     INTEGER,
      completion_tokens INTEGER,
      latency_ms        INTEGER NOT NULL,
      attempts          INTEGER NOT NULL,
      outcome           TEXT NOT NULL CHECK (outcome IN ('valid', 'repaired', 'discarded')),
      created_at        TEXT NOT NULL,
      UNIQUE (task_id, round)
    ) STRICT;
  `);
}
