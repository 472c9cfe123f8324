import type { Db } from '../sqlite';

export const name = '0011-curation';

/**
 * Curation (issue 11; src/main/core/curation/README.md):
 * - trajectories.source_completion: the source's own scores.completion, so the paper's task value
 *   (completion preferred over reward) is read from columns, never from bodies. Backfilled from the
 *   stored Trajectory JSON, and from messages-JSONL lines (their top-level or scores.completion).
 * - curation_rules: bucket thresholds per pool (the SFT export's pool names), defaults documented in the README.
 * - curation_tasks: one row per task id that has trajectories: statistics over its attempts, the
 *   suggested bucket (rules), the assigned bucket (people) and its pool.
 * - curation_dirty: task ids whose trajectories changed; triggers fill it, the transaction that wrote
 *   them recomputes those tasks before it commits (settle.ts), so statistics are never stale on disk.
 * - curation_batches / curation_changes: the log. One batch per bulk action (who, when, why, what
 *   chose the items), one change per item with before/after; undo and redo read them.
 * - curation_grid: the tasks grid's view (statistics beside the task's category, language, services).
 */
export function up(db: Db): void {
  db.exec(`
    ALTER TABLE trajectories ADD COLUMN source_completion REAL;
    UPDATE trajectories SET source_completion = (
      SELECT CASE WHEN typeof(v) IN ('integer', 'real') THEN v END FROM (
        SELECT coalesce(
          CASE WHEN json_valid(b.trajectory) THEN b.trajectory ->> '$.scores.completion' END,
          CASE WHEN trajectories.source_format IN ('openai-ft-jsonl', 'messages-jsonl')
            AND json_valid(CAST(b.raw AS TEXT))
            THEN coalesce(CAST(b.raw AS TEXT) ->> '$.scores.completion', CAST(b.raw AS TEXT) ->> '$.completion') END
        ) AS v
        FROM trajectory_bodies b WHERE b.trajectory_id = trajectories.id));

    CREATE TABLE curation_rules (
      pool             TEXT PRIMARY KEY,
      unsolvable_below REAL NOT NULL CHECK (unsolvable_below BETWEEN 0 AND 1),   -- UNSOLVABLE: best value below this
      trivial_min      REAL NOT NULL CHECK (trivial_min BETWEEN 0 AND 1),        -- TRIVIAL: every value at least this…
      trivial_all_pass INTEGER NOT NULL CHECK (trivial_all_pass IN (0, 1)),      -- …and every attempt passed
      min_attempts     INTEGER NOT NULL CHECK (min_attempts >= 1),               -- fewer scored attempts: no suggestion
      pass_k           INTEGER NOT NULL CHECK (pass_k BETWEEN 1 AND 20),         -- k of Pass@k and Pass^k
      updated_at       TEXT NOT NULL
    ) STRICT;

    CREATE TABLE curation_tasks (
      task_id         TEXT PRIMARY KEY,
      pool            TEXT NOT NULL DEFAULT 'mixed',
      attempts        INTEGER NOT NULL,   -- valid, not superseded trajectories
      scored          INTEGER NOT NULL,   -- with a usable value (completion, else source completion, else reward)
      mean_completion REAL,               -- the grouping statistic: a mean of fractional values, not a success rate
      variance        REAL,               -- population variance of those values
      min_completion  REAL,
      best_completion REAL,
      best_trajectory INTEGER,            -- highest value; ties: the earliest stored
      best_trial      INTEGER,
      mean_score      REAL,
      passes          INTEGER NOT NULL,   -- attempts that passed (grader's passed, else the source's success)
      pass_known      INTEGER NOT NULL,   -- attempts whose pass/fail is known
      pass_at_k       REAL,               -- unbiased; NULL when fewer than k attempts have a known outcome
      pass_hat_k      REAL,               -- combinatorial C(c,k)/C(n,k) (τ-bench); NULL likewise
      suggested       TEXT CHECK (suggested IN ('KEEP', 'TRIVIAL', 'UNSOLVABLE')),
      bucket          TEXT CHECK (bucket IN ('KEEP', 'TRIVIAL', 'UNSOLVABLE')),
      stats_at        TEXT NOT NULL
    ) STRICT;
    CREATE INDEX curation_tasks_mean      ON curation_tasks (mean_completion);
    CREATE INDEX curation_tasks_bucket    ON curation_tasks (bucket, mean_completion);
    CREATE INDEX curation_tasks_suggested ON curation_tasks (suggested);
    CREATE INDEX curation_tasks_attempts  ON curation_tasks (attempts);
    CREATE INDEX curation_tasks_pool      ON curation_tasks (pool);

    CREATE TABLE curation_dirty (task_id TEXT PRIMARY KEY) STRICT;
    CREATE TRIGGER curation_dirty_insert AFTER INSERT ON trajectories BEGIN
      INSERT OR IGNORE INTO curation_dirty (task_id) VALUES (new.task_id);
    END;
    CREATE TRIGGER curation_dirty_delete AFTER DELETE ON trajectories BEGIN
      INSERT OR IGNORE INTO curation_dirty (task_id) VALUES (old.task_id);
    END;
    CREATE TRIGGER curation_dirty_update AFTER UPDATE OF task_id, valid, superseded, completion, source_completion,
      source_reward, score, passed, source_success ON trajectories BEGIN
      INSERT OR IGNORE INTO curation_dirty (task_id) VALUES (old.task_id);
      INSERT OR IGNORE INTO curation_dirty (task_id) VALUES (new.task_id);
    END;
    INSERT INTO curation_dirty (task_id) SELECT DISTINCT task_id FROM trajectories;

    CREATE TABLE curation_batches (
      id        INTEGER PRIMARY KEY,
      kind      TEXT NOT NULL CHECK (kind IN ('assign', 'suggest', 'override', 'pool', 'rules', 'undo', 'redo')),
      target    TEXT NOT NULL CHECK (target IN ('bucket', 'pool', 'override', 'rules')),
      value     TEXT,              -- the value asked for (a bucket, include/exclude, a pool); NULL: cleared or per item
      who       TEXT NOT NULL,     -- the OS user name of the process that made it
      at        TEXT NOT NULL,
      reason    TEXT NOT NULL,
      selection TEXT NOT NULL,     -- JSON: {ids} | {where} | {all} | {batch} (undo/redo: the batch they act on)
      changed   INTEGER NOT NULL,  -- items whose value changed
      of_batch  INTEGER REFERENCES curation_batches (id),  -- undo/redo: the batch acted on
      undone_by INTEGER REFERENCES curation_batches (id)   -- set while this batch is undone (cleared by redo)
    ) STRICT;
    CREATE TABLE curation_changes (
      batch_id INTEGER NOT NULL REFERENCES curation_batches (id) ON DELETE CASCADE,
      item     TEXT NOT NULL,      -- task id; trajectory id (override); pool name (rules)
      before   TEXT,
      after    TEXT,
      PRIMARY KEY (batch_id, item)
    ) STRICT;

    CREATE VIEW curation_grid AS
      SELECT c.*, t.name AS name, t.category AS category, t.language AS language, t.difficulty AS difficulty,
        t.services AS services, CASE WHEN t.task_id IS NULL THEN 1 ELSE 0 END AS external
      FROM curation_tasks c LEFT JOIN tasks t ON t.task_id = c.task_id;
  `);
  const now = new Date().toISOString();
  const rule = db.prepare('INSERT INTO curation_rules VALUES (?, 0.5, 0.95, 1, 1, 3, ?)');
  for (const pool of ['mixed', 'multi_service_safety', 'document_extraction', 'clawmark_harbor']) rule.run(pool, now);
}
