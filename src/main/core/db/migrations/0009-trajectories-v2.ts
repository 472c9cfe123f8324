import type { Db } from '../sqlite';
import { indexForSearch } from '../../trajectories/search-text';

export const name = '0009-trajectories-v2';

/**
 * Trajectories from every source, runs, collections and the curation columns (issue 10). Every
 * column is described in src/main/core/trajectories/README.md; a column added here goes there too,
 * and into TrajectoryRow, TRAJECTORY_COLUMNS and the insert in trajectories-writer.repo.ts.
 *
 * `trajectories` is rebuilt, not altered: its `source` CHECK changes and the dedup key changes.
 * Hazard: foreign keys are on (PRAGMA foreign_keys cannot change inside the migration's
 * transaction), and DROP TABLE runs an implicit DELETE that cascades to children. So the bodies go
 * to a new table first and the old child is dropped before its parent; ALTER TABLE … RENAME then
 * rewrites the new child's reference to the final table name.
 */
export function up(db: Db): void {
  db.exec(
    `
    CREATE TABLE runs (
      id             INTEGER PRIMARY KEY,
      name           TEXT NOT NULL,
      agent_kind     TEXT NOT NULL CHECK (agent_kind IN ('model', 'reference', 'imported')),
      agent_label    TEXT NOT NULL,   -- shown everywhere; the reference agent is 'reference agent', never a model name
      endpoint_name  TEXT,            -- the configured endpoint's name: never a key, never a URL with credentials
      model          TEXT,            -- the model id asked of the endpoint; NULL for the reference agent
      user_simulator TEXT,            -- label of the simulated user ('scripted', a model…); NULL when none
      collection     TEXT,            -- where its trajectories go; NULL for an import spread over several
      trials         INTEGER NOT NULL DEFAULT 1 CHECK (trials >= 1),
      concurrency    INTEGER NOT NULL DEFAULT 1 CHECK (concurrency >= 1),
      state          TEXT NOT NULL CHECK (state IN ('pending', 'running', 'done', 'failed', 'cancelled', ` +
      `'interrupted')),
      job_id         TEXT UNIQUE,     -- the job executing it: cancel and resume go through jobs.*
      selection      TEXT NOT NULL DEFAULT '{}',   -- JSON: the task ids or the filter that chose them; imports: files
      settings       TEXT NOT NULL DEFAULT '{}',   -- JSON: temperature, max turns, retries, seed, perturbations…
      planned        INTEGER NOT NULL DEFAULT 0,   -- task × trial pairs; imports: records read
      stored         INTEGER NOT NULL DEFAULT 0,   -- trajectories stored
      skipped        INTEGER NOT NULL DEFAULT 0,   -- pairs already done before a resume; imports: duplicates
      failed         INTEGER NOT NULL DEFAULT 0,   -- pairs that ended in error; imports: records refused
      error          TEXT,            -- why the run as a whole failed
      created_at     TEXT NOT NULL,
      started_at     TEXT,
      finished_at    TEXT
    ) STRICT;
    CREATE INDEX runs_created_at ON runs (created_at);

    -- A named set of trajectories (one run, one import, a hand-made selection). A collection replaces
    -- the ones it lists in supersedes for every task it holds (the rule is in trajectories/README.md).
    CREATE TABLE collections (
      name        TEXT PRIMARY KEY,
      supersedes  TEXT NOT NULL DEFAULT '[]',   -- JSON array of collection names
      description TEXT NOT NULL DEFAULT '',
      created_at  TEXT NOT NULL,
      updated_at  TEXT NOT NULL
    ) STRICT;

    -- What a record needs besides itself to be read (τ²-bench results: info and tasks), stored once per file content.
    CREATE TABLE trajectory_contexts (
      id      INTEGER PRIMARY KEY,
      format  TEXT NOT NULL,
      hash    TEXT NOT NULL UNIQUE,
      content TEXT NOT NULL            -- JSON
    ) STRICT;

    CREATE TABLE trajectories_v2 (
      id               INTEGER PRIMARY KEY,
      task_id          TEXT NOT NULL,   -- the workspace task it is graded against, or the source's own (external)
      trace_id         TEXT NOT NULL,   -- the source's id of this trajectory (trace id, τ² simulation id, ` +
      `<format>/<task>/<trial>)
      content_hash     TEXT NOT NULL,   -- sha256 of the source record's bytes (runs: of the stored Trajectory JSON)
      model            TEXT NOT NULL,   -- the model id, '' when there is none or the source does not say
      agent            TEXT NOT NULL,   -- the label shown everywhere ('reference agent' for the reference agent)
      source           TEXT NOT NULL CHECK (source IN ('import', 'run')),
      source_format    TEXT NOT NULL CHECK (source_format IN ('tau-bench-v1', 'tau2-results', 'openai-ft-jsonl',
                         'claw-eval-trace', 'messages-jsonl', 'sharegpt', 'studio')),
      source_task_id   TEXT NOT NULL,   -- the task id exactly as the source gave it
      source_reward    REAL,            -- the source's reward, exactly as given (not always 0/1); NULL: none
      source_success   INTEGER CHECK (source_success IN (0, 1)),  -- the source's own success rule; NULL: none
      run_id           INTEGER REFERENCES runs (id) ON DELETE CASCADE,
      trial            INTEGER NOT NULL DEFAULT 0 CHECK (trial >= 0),
      collection       TEXT NOT NULL REFERENCES collections (name) ON UPDATE CASCADE,
      external         INTEGER NOT NULL DEFAULT 0 CHECK (external IN (0, 1)),  -- 1: task not in the workspace at import
      valid            INTEGER NOT NULL DEFAULT 1 CHECK (valid IN (0, 1)),     -- 0: infrastructure error, ` +
      `ungraded trace
      superseded       INTEGER NOT NULL DEFAULT 0 CHECK (superseded IN (0, 1)),
      superseded_by    TEXT,            -- the collection that supersedes it
      include_override TEXT CHECK (include_override IN ('include', 'exclude')),  -- curation's per-trajectory override
      bucket           TEXT,            -- the task's curation bucket, copied for grid filters; NULL until curated
      message_count    INTEGER NOT NULL,
      tool_call_count  INTEGER NOT NULL,
      char_count       INTEGER NOT NULL,
      tokens           INTEGER,         -- total tokens of the agent's model calls, when known
      duration_ms      INTEGER,         -- wall time of the run, when known
      error            TEXT,            -- why the run of this trajectory failed (NULL: it did not)
      completion       REAL,            -- completion … checks_origin: our shared grader's, NULL when not graded
      safety           REAL,
      robustness       REAL,
      score            REAL,
      passed           INTEGER CHECK (passed IN (0, 1)),
      graded           INTEGER NOT NULL CHECK (graded IN (0, 1)),
      checks_origin    TEXT,
      created_at       TEXT NOT NULL
    ) STRICT;

    CREATE TABLE trajectory_bodies_v2 (
      trajectory_id INTEGER PRIMARY KEY REFERENCES trajectories_v2 (id) ON DELETE CASCADE,
      raw           BLOB,      -- the source record's bytes as read (a trace file, a JSONL line, an array element)
      context_id    INTEGER REFERENCES trajectory_contexts (id),
      file          TEXT,      -- where the record was read: the file and the 1-based line it starts on
      line          INTEGER,
      trajectory    TEXT,      -- the Trajectory JSON (Python-aware writer) when it is not derived from raw: runs, edits
      grade         TEXT,      -- GradeResult JSON; NULL when not graded
      CHECK (raw IS NOT NULL OR trajectory IS NOT NULL)
    ) STRICT;

    -- Rows written by trajectories.importTrace (0005): imports of Claw-Eval traces, in one collection.
    INSERT INTO collections (name, supersedes, description, created_at, updated_at)
      SELECT 'claw-eval-traces', '[]', 'Claw-Eval traces imported one by one', min(created_at), min(created_at)
      FROM trajectories HAVING count(*) > 0;
    INSERT INTO trajectories_v2 (
      id, task_id, trace_id, content_hash, model, agent, source, source_format, source_task_id, source_reward,
      source_success, run_id, trial, collection, external, valid, message_count, tool_call_count, char_count,
      tokens, duration_ms, completion, safety, robustness, score, passed, graded, checks_origin, created_at)
    SELECT t.id, t.task_id, t.trace_id, t.content_hash, t.model, t.model, 'import', 'claw-eval-trace',
      json_extract(b.trajectory, '$.task_id'), json_extract(b.trajectory, '$.reward'),
      json_extract(b.trajectory, '$.gradings[#-1].passed'), NULL,
      row_number() OVER (PARTITION BY json_extract(b.trajectory, '$.task_id') ORDER BY t.id) - 1,
      'claw-eval-traces', 1 - t.graded, coalesce(json_extract(b.trajectory, '$.valid'), 1),
      t.message_count, t.tool_call_count, t.char_count, json_extract(b.trajectory, '$.end.total_tokens'),
      CAST(round(json_extract(b.trajectory, '$.end.wall_time_s') * 1000) AS INTEGER),
      t.completion, t.safety, t.robustness, t.score, t.passed, t.graded, t.checks_origin, t.created_at
    FROM trajectories t JOIN trajectory_bodies b ON b.trajectory_id = t.id;
    -- The trace text becomes the raw record; the stored Trajectory JSON stays authoritative for these rows.
    INSERT INTO trajectory_bodies_v2 (trajectory_id, raw, context_id, file, line, trajectory, grade)
      SELECT trajectory_id, CAST(trace AS BLOB), NULL, NULL, NULL, trajectory, grade FROM trajectory_bodies;
    DROP TABLE trajectory_bodies;
    DROP TABLE trajectories;
    ALTER TABLE trajectories_v2 RENAME TO trajectories;
    ALTER TABLE trajectory_bodies_v2 RENAME TO trajectory_bodies;

    -- Dedup: the same record (bytes) of the same source task and trial in the same collection is stored once.
    CREATE UNIQUE INDEX trajectories_dedup ON trajectories (collection, source_task_id, trial, content_hash);
    -- A run stores one trajectory per task × trial: resume skips the pairs it finds here.
    CREATE UNIQUE INDEX trajectories_run_pair ON trajectories (run_id, task_id, trial) WHERE source = 'run';
    CREATE INDEX trajectories_run              ON trajectories (run_id);
    -- Supersession and per-task statistics read a collection's rows by task.
    CREATE INDEX trajectories_collection_task  ON trajectories (collection, task_id);
    CREATE INDEX trajectories_task             ON trajectories (task_id, trial);
    -- The grid: ORDER BY <col>, id walks one of these; bucket/model filters with a score sort walk the composites.
    CREATE INDEX trajectories_bucket_model_score ON trajectories (bucket, model, score);
    CREATE INDEX trajectories_model_score      ON trajectories (model, score);
    CREATE INDEX trajectories_agent            ON trajectories (agent);
    CREATE INDEX trajectories_score            ON trajectories (score);
    CREATE INDEX trajectories_source_reward    ON trajectories (source_reward);
    CREATE INDEX trajectories_created_at       ON trajectories (created_at);

    -- Search over message text (user and assistant text, reasoning, tool calls, tool errors; see
    -- trajectories/search-text.ts). Contentless, fed at insert; snippets are cut from the bodies.
    CREATE VIRTUAL TABLE trajectories_fts USING fts5 (
      text, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
    );
    -- Deleting a trajectory (directly, or by its run's cascade) takes it out of the index.
    CREATE TRIGGER trajectories_fts_delete AFTER DELETE ON trajectories BEGIN
      DELETE FROM trajectories_fts WHERE rowid = old.id;
    END;

    -- The files of an import run, each with its resume position and counts (committed with each batch).
    CREATE TABLE run_files (
      run_id     INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
      idx        INTEGER NOT NULL,
      path       TEXT NOT NULL,
      format     TEXT,               -- the source format; NULL when it could not be told (then error says why)
      collection TEXT NOT NULL,
      size       INTEGER NOT NULL,
      mtime_ms   REAL NOT NULL,
      position   TEXT NOT NULL DEFAULT '{}',  -- JSON: where to go on (byte offset, line, record, context)
      records    INTEGER NOT NULL DEFAULT 0,
      stored     INTEGER NOT NULL DEFAULT 0,
      duplicates INTEGER NOT NULL DEFAULT 0,
      refused    INTEGER NOT NULL DEFAULT 0,
      finished   INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
      error      TEXT,
      PRIMARY KEY (run_id, idx)
    ) STRICT;

    -- Every problem a run met: a refused record (file, line) or a failed task × trial.
    CREATE TABLE run_issues (
      id         INTEGER PRIMARY KEY,
      run_id     INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
      file       TEXT,
      line       INTEGER,
      record     INTEGER,   -- 0-based record index in the file
      task_id    TEXT,
      trial      INTEGER,
      message    TEXT NOT NULL,
      created_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX run_issues_run ON run_issues (run_id, id);
  `,
  );
  indexLegacyTrajectories(db);
}

/** Puts the migrated rows into the search index, with the same text new imports get. */
function indexLegacyTrajectories(db: Db): void {
  // .all(), not .iterate(): better-sqlite3 refuses a write while an iterator is open on the connection.
  const rows = db.prepare('SELECT trajectory_id AS id, trajectory FROM trajectory_bodies').all() as {
    id: number;
    trajectory: string;
  }[];
  const insert = db.prepare('INSERT INTO trajectories_fts (rowid, text) VALUES (?, ?)');
  for (const r of rows) insert.run(r.id, indexForSearch(JSON.parse(r.trajectory)));
}
