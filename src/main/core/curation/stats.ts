import type { CurationRule } from '../../../shared/contract/entities/curation';
import { prepareCached, type WriteDb } from '../db/sqlite';
import { readRules, ruleOf, suggestBucket } from './rules';

/**
 * A trajectory's value for curation (the paper's rule, formats.md §6.3): our grader's completion,
 * else the source's own completion, else its reward; NULL (excluded from every mean) when none is
 * usable. Invalid (infrastructure error) and superseded trajectories are not attempts.
 */
export const VALUE_SQL = 'coalesce(completion, source_completion, source_reward)';

/**
 * What statistics read of a trajectory, one raw row: task, id, attempt (0/1), value, score, pass (fewer
 * columns: a million rows cross into JS; the best attempt's trial is looked up once per task on write).
 * Rows are always fed in trajectory id order: the sums are floating point, so the order is part of the
 * result, and a task's new rows (greater ids) continue its stored sums exactly as a full pass would.
 */
const INPUT = `SELECT task_id, id, (valid = 1 AND superseded = 0), ${VALUE_SQL},
  coalesce(score, source_reward), coalesce(passed, source_success) FROM trajectories`;
type Input = [string, number, number, number | null, number | null, number | null];

/** A task's running statistics: what curation_tasks stores, before the derived columns. */
export type Acc = {
  attempts: number;
  scored: number;
  sum: number;
  sq: number;
  lo: number | null;
  hi: number | null;
  best: number | null;
  scoreSum: number;
  scoreN: number;
  passes: number;
  passKnown: number;
  lastId: number | null;
};

const empty = (): Acc => ({
  attempts: 0,
  scored: 0,
  sum: 0,
  sq: 0,
  lo: null,
  hi: null,
  best: null,
  scoreSum: 0,
  scoreN: 0,
  passes: 0,
  passKnown: 0,
  lastId: null,
});

/** Adds one trajectory (rows in id order). The best attempt: highest value; ties keep the earliest stored. */
function add(a: Acc, [, id, attempt, v, s, p]: Input): void {
  if (a.lastId === null || id > a.lastId) a.lastId = id;
  if (!attempt) return;
  a.attempts++;
  if (v !== null) {
    a.scored++;
    a.sum += v;
    a.sq += v * v;
    if (a.lo === null || v < a.lo) a.lo = v;
    if (a.hi === null || v > a.hi) {
      a.hi = v;
      a.best = id;
    }
  }
  if (s !== null) {
    a.scoreSum += s;
    a.scoreN++;
  }
  if (p !== null) {
    a.passKnown++;
    a.passes += p;
  }
}

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
    stats_at, value_sum, value_sq_sum, score_sum, score_n, last_id)
  VALUES (@task_id, @attempts, @scored, @mean, @variance, @lo, @hi, @best,
    (SELECT trial FROM trajectories WHERE id = @best), @mean_score, @passes,
    @pass_known, @pass_at_k, @pass_hat_k, @suggested, @now, @sum, @sq, @score_sum, @score_n, @last_id)
  ON CONFLICT (task_id) DO UPDATE SET attempts = excluded.attempts, scored = excluded.scored,
    mean_completion = excluded.mean_completion, variance = excluded.variance, min_completion = excluded.min_completion,
    best_completion = excluded.best_completion, best_trajectory = excluded.best_trajectory,
    best_trial = excluded.best_trial, mean_score = excluded.mean_score, passes = excluded.passes,
    pass_known = excluded.pass_known, pass_at_k = excluded.pass_at_k, pass_hat_k = excluded.pass_hat_k,
    suggested = excluded.suggested, stats_at = excluded.stats_at, value_sum = excluded.value_sum,
    value_sq_sum = excluded.value_sq_sum, score_sum = excluded.score_sum, score_n = excluded.score_n,
    last_id = excluded.last_id`;

/** Writes a task's statistics and suggestion (its pool's rule) from its running sums. */
function write(db: WriteDb, taskId: string, a: Acc, rule: CurationRule, now: string): void {
  const mean = a.scored ? a.sum / a.scored : null;
  const variance = mean === null ? null : Math.max(0, a.sq / a.scored - mean * mean);
  prepareCached(db, UPSERT).run({
    task_id: taskId,
    attempts: a.attempts,
    scored: a.scored,
    mean,
    variance,
    lo: a.lo,
    hi: a.hi,
    best: a.best,
    mean_score: a.scoreN ? a.scoreSum / a.scoreN : null,
    passes: a.passes,
    pass_known: a.passKnown,
    pass_at_k: passAtK(a.passKnown, a.passes, rule.passK),
    pass_hat_k: passHatK(a.passKnown, a.passes, rule.passK),
    suggested: suggestBucket(
      { scored: a.scored, min: a.lo, max: a.hi, passes: a.passes, passKnown: a.passKnown },
      rule,
    ),
    now,
    sum: a.scored ? a.sum : null,
    sq: a.scored ? a.sq : null,
    score_sum: a.scoreN ? a.scoreSum : null,
    score_n: a.scoreN,
    last_id: a.lastId,
  });
}

/** Folds raw input rows (in id order) into one accumulator per task. */
function fold(rows: Iterable<unknown>): Map<string, Acc> {
  const accs = new Map<string, Acc>();
  for (const r of rows as Iterable<Input>) {
    let a = accs.get(r[0]);
    if (!a) accs.set(r[0], (a = empty()));
    add(a, r);
  }
  return accs;
}

/** Raw rows of a statement (its own statement: the shared cache's must stay in the default mode). */
const rawRows = (db: WriteDb, sql: string, ...params: unknown[]) =>
  (db as unknown as { prepare(s: string): { raw(): { iterate(...p: unknown[]): Iterable<unknown> } } })
    .prepare(sql)
    .raw()
    .iterate(...params);

/**
 * Recomputes the statistics and suggestions of the tasks in curation_dirty (`scope: 'dirty'`) or of
 * every task (`'all'`), inside the caller's transaction, from all of their rows. `'all'` reads the
 * table once in rowid order (pages in file order, no index lookups) and aggregates here. A task left
 * without any trajectory loses its row unless a bucket was assigned to it (the decision outlives a
 * re-import). Answers how many tasks were written.
 */
export function recomputeStats(db: WriteDb, scope: 'dirty' | 'all', now: string): number {
  const inScope = scope === 'all' ? '' : 'WHERE task_id IN (SELECT task_id FROM curation_dirty)';
  const accs = fold(rawRows(db, `${INPUT} ${inScope} ORDER BY id`));
  const pools = new Map(
    prepareCached(db, `SELECT task_id, pool FROM curation_tasks ${inScope}`)
      .all()
      .map((r) => [(r as { task_id: string }).task_id, (r as { pool: string }).pool]),
  );
  const rules = readRules(db);
  for (const [taskId, a] of accs) write(db, taskId, a, ruleOf(rules, pools.get(taskId) ?? 'mixed'), now);
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
       passes = 0, pass_known = 0, pass_at_k = NULL, pass_hat_k = NULL, suggested = NULL, stats_at = ?,
       value_sum = NULL, value_sq_sum = NULL, score_sum = NULL, score_n = 0, last_id = NULL
     WHERE ${gone}`,
  ).run(now);
  return accs.size;
}

type Stored = {
  task_id: string;
  pool: string;
  attempts: number;
  scored: number;
  value_sum: number | null;
  value_sq_sum: number | null;
  min_completion: number | null;
  best_completion: number | null;
  best_trajectory: number | null;
  score_sum: number | null;
  score_n: number;
  passes: number;
  pass_known: number;
  last_id: number | null;
};

/**
 * Adds the trajectories inserted since the last settle (curation_added) to their tasks' stored sums:
 * the cost of a batch is its own rows, not every row of the tasks it touched. Tasks in curation_dirty
 * (a row updated or deleted) are left to the full recompute; so is a task whose new rows are not all
 * after the rows its sums have read (an id given explicitly), which is listed there. Answers how many
 * tasks were written.
 */
export function addNewRows(db: WriteDb, now: string): number {
  const rows = rawRows(
    db,
    `${INPUT} WHERE id IN (SELECT id FROM curation_added)
       AND task_id NOT IN (SELECT task_id FROM curation_dirty) ORDER BY id`,
  ) as Iterable<Input>;
  const stored = prepareCached(
    db,
    `SELECT task_id, pool, attempts, scored, value_sum, value_sq_sum, min_completion, best_completion,
       best_trajectory, score_sum, score_n, passes, pass_known, last_id
     FROM curation_tasks WHERE task_id = ?`,
  );
  const tasks = new Map<string, { acc: Acc; pool: string }>();
  const redo = new Set<string>();
  for (const r of rows) {
    const taskId = r[0];
    if (redo.has(taskId)) continue;
    let t = tasks.get(taskId);
    if (!t) {
      // The first added row of a task has its smallest new id (rows come in id order).
      const s = stored.get(taskId) as Stored | undefined;
      if (s && s.last_id !== null && s.last_id >= r[1]) {
        redo.add(taskId);
        continue;
      }
      tasks.set(taskId, (t = { acc: s ? fromStored(s) : empty(), pool: s?.pool ?? 'mixed' }));
    }
    add(t.acc, r);
  }
  const rules = readRules(db);
  for (const [taskId, t] of tasks) write(db, taskId, t.acc, ruleOf(rules, t.pool), now);
  const later = prepareCached(db, 'INSERT OR IGNORE INTO curation_dirty (task_id) VALUES (?)');
  for (const taskId of redo) later.run(taskId);
  return tasks.size;
}

/** A task's stored statistics as running sums (what `add` continues). */
const fromStored = (s: Stored): Acc => ({
  attempts: s.attempts,
  scored: s.scored,
  sum: s.value_sum ?? 0,
  sq: s.value_sq_sum ?? 0,
  lo: s.min_completion,
  hi: s.best_completion,
  best: s.best_trajectory,
  scoreSum: s.score_sum ?? 0,
  scoreN: s.score_n,
  passes: s.passes,
  passKnown: s.pass_known,
  lastId: s.last_id,
});
