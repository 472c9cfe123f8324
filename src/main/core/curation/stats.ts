import type { CurationRule } from '../../../shared/contract/entities/curation';
import { prepareCached, type WriteDb } from '../db/sqlite';
import { readRules, ruleOf, suggestBucket } from './rules';
import { scoreOfRecordSql } from '../trajectories/score-basis';

/**
 * A trajectory's value for curation (the paper's rule, formats.md §6.3): the completion of the side its
 * collection's score basis picks (trajectories/score-basis.ts: the score of record, or the app's grade), else
 * that side's reward; NULL (excluded from every mean) when none is usable — a judge-pending app grade included.
 * Invalid (infrastructure error) and superseded trajectories are not attempts.
 */
const BASIS = scoreOfRecordSql();
export const VALUE_SQL = BASIS.value;

/**
 * The pass that feeds passes, pass_at_k and pass_hat_k is the chosen side's (score-basis.ts): the
 * grader's verdict (`passed`, score ≥ 0.75) or the source's own (`source_success`), which the τ-bench and
 * τ²-bench importers set with their is_successful (reward within 1e-6 of 1) and Claw-Eval traces carry. A
 * reward without a verdict stays unknown (outside pass_known) rather than judged by a guessed rule, and
 * pass@k / pass^k are null when pass_known < k: refused as τ²-bench does, never padded.
 *
 * What statistics read of a trajectory, one raw row: task, id, attempt (0/1), value, score, pass (fewer
 * columns: a million rows cross into JS; the best attempt's trial is looked up once per task on write).
 * Rows are always fed in trajectory id order: the sums are floating point, so the order is part of the
 * result, and a task's new rows (greater ids) continue its stored sums exactly as a full pass would.
 */
const INPUT = `SELECT task_id, id, (valid = 1 AND superseded = 0), ${VALUE_SQL},
  ${BASIS.score}, ${BASIS.passed} FROM trajectories`;
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

type Params = Record<string, string | number | null>;

/** A task's statistics and suggestion (its pool's rule) from its running sums, as UPSERT's parameters. */
function statsOf(taskId: string, a: Acc, rule: CurationRule, now: string): Params {
  const mean = a.scored ? a.sum / a.scored : null;
  const variance = mean === null ? null : Math.max(0, a.sq / a.scored - mean * mean);
  return {
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
    suggested: suggestBucket({ scored: a.scored, mean, passes: a.passes, passKnown: a.passKnown }, rule),
    now,
    sum: a.scored ? a.sum : null,
    sq: a.scored ? a.sq : null,
    score_sum: a.scoreN ? a.scoreSum : null,
    score_n: a.scoreN,
    last_id: a.lastId,
  };
}

const write = (db: WriteDb, p: Params) => prepareCached(db, UPSERT).run(p);

/** UPSERT's parameters → the stored columns they set (stats_at aside). */
const STORED: [keyof Params & string, string][] = [
  ['attempts', 'attempts'],
  ['scored', 'scored'],
  ['mean', 'mean_completion'],
  ['variance', 'variance'],
  ['lo', 'min_completion'],
  ['hi', 'best_completion'],
  ['best', 'best_trajectory'],
  ['mean_score', 'mean_score'],
  ['passes', 'passes'],
  ['pass_known', 'pass_known'],
  ['pass_at_k', 'pass_at_k'],
  ['pass_hat_k', 'pass_hat_k'],
  ['suggested', 'suggested'],
  ['sum', 'value_sum'],
  ['sq', 'value_sq_sum'],
  ['score_sum', 'score_sum'],
  ['score_n', 'score_n'],
  ['last_id', 'last_id'],
];
/**
 * The stored rows as one JSON array of arrays: task_id, pool, bucket, then the STORED columns in order (50,000
 * objects of 21 keys cost three times as much; REALs come back as the same doubles, see CHUNK_SQL).
 */
const STORED_COLUMNS = STORED.map(([, c]) => c).join(', ');
const STORED_SQL = `SELECT json_group_array(json_array(task_id, pool, bucket, ${STORED_COLUMNS})) AS j
  FROM curation_tasks`;
type StoredRow = [string, string, string | null, ...unknown[]];
const same = (p: Params, row: StoredRow) => STORED.every(([k], i) => p[k] === row[i + 3]);

/** Stored columns that lead an index of curation_tasks: an UPDATE that sets one moves its index entry. */
const INDEXED = new Set(['attempts', 'mean_completion', 'suggested']);
/**
 * Updates a stored row with what differs: the indexed columns only when they changed (setting one, even to
 * its own value, rewrites its index entries: a repair that rewrote every task paid four index moves each).
 */
function rewrite(db: WriteDb, p: Params, row: StoredRow): void {
  const set = STORED.filter(([k, c], i) => !INDEXED.has(c) || p[k] !== row[i + 3]).map(([k, c]) => `${c} = @${k}`);
  prepareCached(
    db,
    `UPDATE curation_tasks SET ${set.join(', ')}, best_trial = (SELECT trial FROM trajectories WHERE id = @best),
       stats_at = @now WHERE task_id = @task_id`,
  ).run(p);
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

type RawStatement = {
  raw(): {
    iterate(...p: unknown[]): Iterable<unknown>;
    all(...p: unknown[]): unknown[][];
    get(...p: unknown[]): unknown;
  };
};
/** A statement of its own in raw mode (the shared cache's statements must stay in the default mode). */
const rawStatement = (db: WriteDb, sql: string) =>
  (db as unknown as { prepare(s: string): RawStatement }).prepare(sql).raw();

/**
 * INPUT for every row, CHUNK rows per call in id order, as one JSON array per column: a million rows cost
 * a thousand calls and no per-row array (a third less than raw rows). SQLite writes REALs into JSON with 17
 * significant digits, which parse back to the very same doubles.
 */
const CHUNK = 5000;
const CHUNK_SQL = `SELECT json_group_array(task_id), json_group_array(id), json_group_array(a), json_group_array(v),
    json_group_array(s), json_group_array(p), max(id)
  FROM (SELECT task_id, id, (valid = 1 AND superseded = 0) AS a, ${VALUE_SQL} AS v, ${BASIS.score} AS s,
    ${BASIS.passed} AS p FROM trajectories WHERE id > ? ORDER BY id LIMIT ${CHUNK})`;

/** Folds every trajectory into one accumulator per task, in id order. */
function foldAll(db: WriteDb): Map<string, Acc> {
  const accs = new Map<string, Acc>();
  const page = rawStatement(db, CHUNK_SQL);
  const row: Input = ['', 0, 0, null, null, null];
  for (let after = -Infinity; ; ) {
    const [t, i, a, v, s, p, last] = page.get(after) as (string | number | null)[];
    if (last === null) return accs;
    const [tasks, ids, att, vs, ss, ps] = [t, i, a, v, s, p].map((c) => JSON.parse(c as string) as unknown[]);
    for (let k = 0; k < tasks!.length; k++) {
      row[0] = tasks![k] as string;
      row[1] = ids![k] as number;
      // Sums depend on the order: guard the assumption that the aggregate reads the rows as sorted.
      if (row[1] <= after) throw new Error('curation statistics: trajectory rows out of id order');
      after = row[1];
      row[2] = att![k] as number;
      row[3] = vs![k] as number | null;
      row[4] = ss![k] as number | null;
      row[5] = ps![k] as number | null;
      let acc = accs.get(row[0]);
      if (!acc) accs.set(row[0], (acc = empty()));
      add(acc, row);
    }
  }
}

/**
 * Recomputes the statistics and suggestions of the tasks in curation_dirty (`scope: 'dirty'`) or of
 * every task (`'all'`), inside the caller's transaction, from all of their rows. `'all'` reads the
 * table once in rowid order (pages in file order, no index lookups; foldAll) and aggregates here; only tasks
 * whose statistics differ from the stored ones are written. A task left without any trajectory loses
 * its row unless a bucket was assigned to it (the decision outlives a re-import). Answers how many
 * tasks were recomputed.
 */
export function recomputeStats(db: WriteDb, scope: 'dirty' | 'all', now: string): number {
  const inScope = scope === 'all' ? '' : 'WHERE task_id IN (SELECT task_id FROM curation_dirty)';
  const accs = scope === 'all' ? foldAll(db) : fold(rawStatement(db, `${INPUT} ${inScope} ORDER BY id`).iterate());
  const { j } = prepareCached(db, `${STORED_SQL} ${inScope}`).get() as { j: string };
  const stored = new Map((JSON.parse(j) as StoredRow[]).map((r) => [r[0], r]));
  const rules = readRules(db);
  for (const [taskId, a] of accs) {
    const row = stored.get(taskId);
    const p = statsOf(taskId, a, ruleOf(rules, row?.[1] ?? 'mixed'), now);
    // A task whose statistics are already right is not written (nor its time): most of them, in a repair.
    if (!row) write(db, p);
    else if (!same(p, row)) rewrite(db, p, row);
  }
  // Tasks whose last trajectory is gone: every task with rows has an accumulator.
  for (const [taskId, row] of stored) {
    if (accs.has(taskId)) continue;
    if (row[2] === null) prepareCached(db, 'DELETE FROM curation_tasks WHERE task_id = ?').run(taskId);
    else
      prepareCached(
        db,
        `UPDATE curation_tasks SET attempts = 0, scored = 0, mean_completion = NULL, variance = NULL,
           min_completion = NULL, best_completion = NULL, best_trajectory = NULL, best_trial = NULL,
           mean_score = NULL, passes = 0, pass_known = 0, pass_at_k = NULL, pass_hat_k = NULL, suggested = NULL,
           stats_at = ?, value_sum = NULL, value_sq_sum = NULL, score_sum = NULL, score_n = 0, last_id = NULL
         WHERE task_id = ?`,
      ).run(now, taskId);
  }
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
  const rows = rawStatement(
    db,
    `${INPUT} WHERE id IN (SELECT id FROM curation_added)
       AND task_id NOT IN (SELECT task_id FROM curation_dirty) ORDER BY id`,
  ).iterate() as Iterable<Input>;
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
  for (const [taskId, t] of tasks) write(db, statsOf(taskId, t.acc, ruleOf(rules, t.pool), now));
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
