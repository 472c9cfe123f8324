import { prepareCached, type WriteDb } from '../db/sqlite';
import { readRules, ruleOf, suggestBucket } from './rules';

/**
 * A trajectory's value for curation (the paper's rule, formats.md §6.3): our grader's completion,
 * else the source's own completion, else its reward; NULL (excluded from every mean) when none is
 * usable. Invalid (infrastructure error) and superseded trajectories are not attempts.
 */
export const VALUE_SQL = 'coalesce(completion, source_completion, source_reward)';
const ATTEMPT = 'valid = 1 AND superseded = 0';
/** The best attempt rides inside one max(): value (clamped to ±1000, 1e-6 steps) above, 2^32 − id below. */
const BEST_KEY = `max(CASE WHEN ${ATTEMPT} AND ${VALUE_SQL} IS NOT NULL THEN
  (CAST(round(max(-1000, min(1000, ${VALUE_SQL})) * 1000000) AS INTEGER) + 1000000000) * 4294967296 + (4294967295 - id)
  END)`;

/** best_key needs all 64 bits: it is decoded here, in SQLite's integers, never in JS numbers (53 bits). */
const aggregate = (where: string) => `
  SELECT task_id, attempts, scored, s, ss, lo, hi, mean_score, pass_known, passes,
    CASE WHEN best_key IS NOT NULL THEN 4294967295 - (best_key % 4294967296) END AS best FROM (
  SELECT task_id,
    count(CASE WHEN ${ATTEMPT} THEN 1 END) AS attempts,
    count(CASE WHEN ${ATTEMPT} THEN ${VALUE_SQL} END) AS scored,
    sum(CASE WHEN ${ATTEMPT} THEN ${VALUE_SQL} END) AS s,
    sum(CASE WHEN ${ATTEMPT} THEN ${VALUE_SQL} * ${VALUE_SQL} END) AS ss,
    min(CASE WHEN ${ATTEMPT} THEN ${VALUE_SQL} END) AS lo,
    max(CASE WHEN ${ATTEMPT} THEN ${VALUE_SQL} END) AS hi,
    ${BEST_KEY} AS best_key,
    avg(CASE WHEN ${ATTEMPT} THEN coalesce(score, source_reward) END) AS mean_score,
    count(CASE WHEN ${ATTEMPT} THEN coalesce(passed, source_success) END) AS pass_known,
    coalesce(sum(CASE WHEN ${ATTEMPT} THEN coalesce(passed, source_success) END), 0) AS passes
  FROM trajectories ${where} GROUP BY task_id) a`;

type Agg = {
  task_id: string;
  attempts: number;
  scored: number;
  s: number | null;
  ss: number | null;
  lo: number | null;
  hi: number | null;
  best: number | null;
  mean_score: number | null;
  pass_known: number;
  passes: number;
};

/** Unbiased pass@k = 1 − C(n−c, k)/C(n, k) as a product (formats.md §5.2); null when n < k. */
export function passAtK(n: number, c: number, k: number): number | null {
  if (n < k) return null;
  if (n - c < k) return 1;
  let p = 1;
  for (let i = 0; i < k; i++) p *= (n - c - i) / (n - i);
  return 1 - p;
}

/** Combinatorial pass^k = C(c, k)/C(n, k) (τ-bench, formats.md §5.3); null when n < k. */
export function passHatK(n: number, c: number, k: number): number | null {
  if (n < k) return null;
  let p = 1;
  for (let i = 0; i < k; i++) p *= Math.max(0, c - i) / (n - i);
  return p;
}

const UPSERT = `INSERT INTO curation_tasks (task_id, attempts, scored, mean_completion, variance, min_completion,
    best_completion, best_trajectory, best_trial, mean_score, passes, pass_known, pass_at_k, pass_hat_k, suggested,
    stats_at)
  VALUES (@task_id, @attempts, @scored, @mean, @variance, @lo, @hi, @best,
    (SELECT trial FROM trajectories WHERE id = @best),
    @mean_score, @passes, @pass_known, @pass_at_k, @pass_hat_k, @suggested, @now)
  ON CONFLICT (task_id) DO UPDATE SET attempts = excluded.attempts, scored = excluded.scored,
    mean_completion = excluded.mean_completion, variance = excluded.variance, min_completion = excluded.min_completion,
    best_completion = excluded.best_completion, best_trajectory = excluded.best_trajectory,
    best_trial = excluded.best_trial, mean_score = excluded.mean_score, passes = excluded.passes,
    pass_known = excluded.pass_known, pass_at_k = excluded.pass_at_k, pass_hat_k = excluded.pass_hat_k,
    suggested = excluded.suggested, stats_at = excluded.stats_at`;

/**
 * Recomputes the statistics and suggestions of the tasks in curation_dirty (`scope: 'dirty'`) or of
 * every task (`'all'`), inside the caller's transaction. A task left without any trajectory loses
 * its row unless a bucket was assigned to it (the decision outlives a re-import). Answers how many
 * tasks were written.
 */
export function recomputeStats(db: WriteDb, scope: 'dirty' | 'all', now: string): number {
  const where = scope === 'all' ? '' : 'WHERE task_id IN (SELECT task_id FROM curation_dirty)';
  const rows = prepareCached(db, aggregate(where)).all() as Agg[];
  const pools = new Map(
    (
      prepareCached(db, `SELECT task_id, pool FROM curation_tasks ${where}`).all() as {
        task_id: string;
        pool: string;
      }[]
    ).map((r) => [r.task_id, r.pool]),
  );
  const rules = readRules(db);
  const upsert = prepareCached(db, UPSERT);
  for (const a of rows) {
    const rule = ruleOf(rules, pools.get(a.task_id) ?? 'mixed');
    const mean = a.scored ? a.s! / a.scored : null;
    const variance = mean === null ? null : Math.max(0, a.ss! / a.scored - mean * mean);
    upsert.run({
      task_id: a.task_id,
      attempts: a.attempts,
      scored: a.scored,
      mean,
      variance,
      lo: a.lo,
      hi: a.hi,
      best: a.best,
      mean_score: a.mean_score,
      passes: a.passes,
      pass_known: a.pass_known,
      pass_at_k: passAtK(a.pass_known, a.passes, rule.passK),
      pass_hat_k: passHatK(a.pass_known, a.passes, rule.passK),
      suggested: suggestBucket(
        { scored: a.scored, min: a.lo, max: a.hi, passes: a.passes, passKnown: a.pass_known },
        rule,
      ),
      now,
    });
  }
  // Tasks whose last trajectory is gone.
  const gone = `NOT EXISTS (SELECT 1 FROM trajectories t WHERE t.task_id = curation_tasks.task_id)${
    scope === 'all' ? '' : ' AND task_id IN (SELECT task_id FROM curation_dirty)'
  }`;
  // `+bucket`: not by the bucket index — every new task has bucket NULL, so that walked all of them
  // per settle (an import's batch) instead of looking up the few dirty ones by task id.
  prepareCached(db, `DELETE FROM curation_tasks WHERE ${gone} AND +bucket IS NULL`).run();
  prepareCached(
    db,
    `UPDATE curation_tasks SET attempts = 0, scored = 0, mean_completion = NULL, variance = NULL,
       min_completion = NULL, best_completion = NULL, best_trajectory = NULL, best_trial = NULL, mean_score = NULL,
       passes = 0, pass_known = 0, pass_at_k = NULL, pass_hat_k = NULL, suggested = NULL, stats_at = ?
     WHERE ${gone}`,
  ).run(now);
  return rows.length;
}
