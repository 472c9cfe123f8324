import type { Db } from '../sqlite';

export const name = '0018-score-of-record';

/**
 * The score of record beside the app's grade, and the judge's cache (issue 18 item 3, issue 19 item 2).
 *
 * - Recorded: what the source recorded — an import's `source_completion` / `source_reward` / `source_success`, and
 *   for the app's own runs their grade at run time, which runs now also write there (rows stored before are
 *   backfilled from their current grade, the best record left of it). Re-grades change only the app's grade
 *   (`completion`, `safety`, `robustness`, `score`, `passed`) — an imported trace recorded at 0.64 (failed) stays
 *   0.64 whatever the app's checks say.
 * - `collections.score_basis` picks which of the two curation, reports and exports read: `recorded` (the default,
 *   and every import's), `app` for collections only the app's runs wrote. Changes are logged in score_basis_log.
 * - `app_pending`: the weight of checks the app's grade could not grade (llm_judge without a judge verdict). Such a
 *   row's app completion, score and pass are NULL — unknown, never 0 — and it counts in no mean or pass rate
 *   until a judge grades it; the lower bound stays in the grade JSON. Existing pending grades are converted.
 * - `disagrees` (virtual, indexed where 1): both sides known and the pass differs or |Δ score| > 1e-6 (completion
 *   when the source recorded no score); NULL when either side is unknown.
 * - `judge_cache`: the judge's scored answers by sha256(model, prompt) (grading/judge/judge-prompt.ts).
 */
export function up(db: Db): void {
  db.exec(`
    ALTER TABLE collections ADD COLUMN score_basis TEXT NOT NULL DEFAULT 'recorded'
      CHECK (score_basis IN ('recorded', 'app'));
    UPDATE collections SET score_basis = 'app'
      WHERE name IN (SELECT collection FROM trajectories WHERE source = 'run')
        AND name NOT IN (SELECT collection FROM trajectories WHERE source = 'import');

    CREATE TABLE score_basis_log (
      id         INTEGER PRIMARY KEY,
      collection TEXT NOT NULL,     -- no foreign key: the log outlives a collection's deletion
      before     TEXT NOT NULL,
      after      TEXT NOT NULL,
      who        TEXT NOT NULL,
      at         TEXT NOT NULL,
      reason     TEXT NOT NULL
    ) STRICT;
    CREATE INDEX score_basis_log_collection ON score_basis_log (collection, id);

    ALTER TABLE trajectories ADD COLUMN app_pending REAL;
    UPDATE trajectories SET app_pending = (
        SELECT json_extract(b.grade, '$.pendingWeight') FROM trajectory_bodies b
        WHERE b.trajectory_id = trajectories.id)
      WHERE graded = 1;
    UPDATE trajectories SET app_pending = NULL WHERE app_pending <= 0;
    UPDATE trajectories SET completion = NULL, score = NULL, passed = NULL WHERE app_pending > 0;
    UPDATE trajectories SET source_completion = completion, source_reward = score, source_success = passed
      WHERE source = 'run' AND graded = 1 AND source_reward IS NULL AND source_completion IS NULL;

    ALTER TABLE trajectories ADD COLUMN disagrees INTEGER GENERATED ALWAYS AS (
      CASE
        WHEN graded = 0 OR score IS NULL THEN NULL
        WHEN source_reward IS NULL AND source_success IS NULL AND source_completion IS NULL THEN NULL
        WHEN source_success IS NOT NULL AND passed IS NOT NULL AND source_success <> passed THEN 1
        WHEN source_reward IS NOT NULL AND abs(source_reward - score) > 1e-6 THEN 1
        WHEN source_reward IS NULL AND source_completion IS NOT NULL AND abs(source_completion - completion) > 1e-6
          THEN 1
        ELSE 0
      END) VIRTUAL;
    CREATE INDEX trajectories_disagrees ON trajectories (collection, task_id) WHERE disagrees = 1;

    CREATE TABLE judge_cache (
      key        TEXT PRIMARY KEY,   -- sha256 of (model, temperature, system prompt, user prompt)
      model      TEXT NOT NULL,
      answer     TEXT NOT NULL,      -- the judge's raw answer
      score      REAL NOT NULL,      -- parsed and clamped to [0, 1]
      reasoning  TEXT NOT NULL,
      created_at TEXT NOT NULL
    ) STRICT;
  `);
}
