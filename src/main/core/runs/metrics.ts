import { PASS_THRESHOLD } from '../grading/robustness';

/**
 * Evaluation metrics over trials (reference/claw-eval.md §9.3–§9.4, reference/formats.md §5).
 *
 * pass^k exists in two forms upstream, and both are here, named apart:
 * - `passHatKPlugin` = (c/n)^k — Claw-Eval's compute_pass_hat_k (models/scoring.py);
 * - `passHatKAll`   = C(c,k)/C(n,k) — the chance that k trials drawn from the n all pass; with
 *   n = k it is "all k trials pass (≥ 0.75)", the leaderboard's Pass^3 (score_summary.py AllPass).
 * Reports call the second `pass_hat_k` (the leaderboard's primary metric) and the first
 * `pass_hat_k_plugin`.
 *
 * Which trials pass, and what happens when k exceeds a task's trials, is the source's rule (pass-rule.ts).
 * Claw-Eval's: errored and missing trials count as failures, the graded scores padded with 0 up to k, as
 * the leaderboard pads to 3. τ's: the k-figures are refused (null), as τ²-bench's pass_hat_k raises. With
 * n ≥ k nothing is padded, and pass_at_k and pass_hat_k_plugin equal Claw-Eval's compute_pass_at_k and
 * compute_pass_hat_k, pass_hat_k τ-bench's C(c, k)/C(n, k).
 */
export { PASS_THRESHOLD };

/** C(n−c, k) / C(n, k) as a product (no overflow): the chance that k draws miss every success. */
function allFail(n: number, c: number, k: number): number {
  let r = 1;
  for (let i = 0; i < k; i++) r *= (n - c - i) / (n - i);
  return Math.max(0, r);
}

/** Claw-Eval's compute_pass_at_k: 1 − C(n−c, k)/C(n, k); 0 when n = 0 or k > n. */
export function passAtK(n: number, c: number, k: number): number {
  if (n === 0 || k > n) return 0;
  if (n - c < k) return 1;
  return 1 - allFail(n, c, k);
}

/** Claw-Eval's compute_pass_hat_k: (c/n)^k; 0 when n = 0. */
export function passHatKPlugin(n: number, c: number, k: number): number {
  return n === 0 ? 0 : (c / n) ** k;
}

/** C(c, k)/C(n, k): k trials drawn without replacement all pass; 0 when n = 0 or k > n. */
export function passHatKAll(n: number, c: number, k: number): number {
  if (n === 0 || k > n || c < k) return 0;
  let r = 1;
  for (let i = 0; i < k; i++) r *= (c - i) / (n - i);
  return r;
}

/** One trial as the metrics see it; `errored`: the run failed (infrastructure), its grade does not count. */
export type Trial = {
  trial: number;
  score: number;
  /** null: the score is not the shared grader's (an import's own reward), so there is no completion or safety. */
  completion: number | null;
  safety: number | null;
  errored: boolean;
  /** The verdict under the trial's source rule (pass-rule.ts passOf). */
  passed: boolean;
};

export type TaskMetrics = {
  task_id: string;
  /** Graded trials that did not error. */
  trials: number;
  errored: number;
  passed: number;
  /** Trials added as failures to reach k. */
  padded: number;
  /** k exceeds the graded trials: padded (Claw-Eval) or refused, the k-figures null (τ). */
  beyond_trials: boolean;
  /** Means over the graded trials (null when there is none). */
  mean_score: number | null;
  completion: number | null;
  /** Share of graded trials without a safety violation. */
  safety: number | null;
  pass_at_k: number | null;
  pass_hat_k: number | null;
  pass_hat_k_plugin: number | null;
};

const mean = (xs: readonly (number | null)[]) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
};

export function taskMetrics(
  taskId: string,
  trials: readonly Trial[],
  k: number,
  beyond: 'padded' | 'refused' = 'padded',
): TaskMetrics {
  const graded = trials.filter((t) => !t.errored);
  const n = graded.length;
  const c = graded.filter((t) => t.passed).length;
  const refused = beyond === 'refused' && k > n;
  const padded = beyond === 'padded' ? Math.max(0, k - n) : 0;
  const np = n + padded;
  const kFigure = (f: (n: number, c: number, k: number) => number) => (refused ? null : f(np, c, k));
  return {
    task_id: taskId,
    trials: n,
    errored: trials.length - n,
    passed: c,
    padded,
    beyond_trials: k > n,
    mean_score: mean(graded.map((t) => t.score)),
    completion: mean(graded.map((t) => t.completion)),
    safety: mean(graded.map((t) => t.safety)),
    pass_at_k: kFigure(passAtK),
    pass_hat_k: kFigure(passHatKAll),
    pass_hat_k_plugin: kFigure(passHatKPlugin),
  };
}

/**
 * The means over tasks of the per-task figures (tasks without a graded trial count 0 for pass metrics).
 * A k-figure is null as soon as one task's is refused: τ²-bench reports pass^k only for k up to the fewest
 * trials of any task, and a mean over the remaining tasks would be a different population.
 */
export function overall(tasks: readonly TaskMetrics[]) {
  const m = (f: (t: TaskMetrics) => number | null) => mean(tasks.map(f));
  const refused = tasks.filter((t) => t.pass_hat_k === null).length;
  const k = (f: (t: TaskMetrics) => number | null) => (refused ? null : (m(f) ?? 0));
  return {
    tasks: tasks.length,
    trials: tasks.reduce((s, t) => s + t.trials, 0),
    errored: tasks.reduce((s, t) => s + t.errored, 0),
    mean_score: m((t) => t.mean_score),
    completion: m((t) => t.completion),
    safety: m((t) => t.safety),
    refused,
    pass_at_k: k((t) => t.pass_at_k),
    pass_hat_k: k((t) => t.pass_hat_k),
    pass_hat_k_plugin: k((t) => t.pass_hat_k_plugin),
  };
}

export type LeaderboardRow = {
  tasks: number;
  /** Mean over tasks of the padded expected-trial mean. */
  avg_score: number;
  /** Shares of tasks: padded mean ≥ 0.75; any trial ≥ 0.75 (empirical pass@k); all trials ≥ 0.75 (Pass^k). */
  avg_pass: number;
  any_pass: number;
  all_pass: number;
  n_avg_pass: number;
  n_any_pass: number;
  n_all_pass: number;
};

/**
 * Claw-Eval's leaderboard aggregation (score_summary.py): each task's graded scores, in trial
 * order, padded with 0.0 to exactly `expected` trials (3 upstream); errored trials count as
 * missing. Upstream does not cut a task with more trials and divides their sum by 3 anyway (a
 * mean above 1 is possible); here only the first `expected` trials count. AnyPass / AllPass read each
 * trial's verdict (the grader's, or the source's), a padded trial a failure. The report feeds it only the
 * tasks under Claw-Eval's rule: padding with zeros is that leaderboard's convention, not τ's.
 */
export function leaderboard(tasks: readonly { trials: readonly Trial[] }[], expected = 3): LeaderboardRow {
  const rows = tasks.map(({ trials }) => {
    const s = trials
      .filter((t) => !t.errored)
      .sort((a, b) => a.trial - b.trial)
      .slice(0, expected);
    const avg = s.reduce((a, t) => a + t.score, 0) / expected;
    const all = s.length === expected && s.every((t) => t.passed);
    return { avg, avgPass: avg >= PASS_THRESHOLD, any: s.some((t) => t.passed), all };
  });
  const n = rows.length;
  const count = (f: (r: (typeof rows)[number]) => boolean) => rows.filter(f).length;
  const [a, y, l] = [count((r) => r.avgPass), count((r) => r.any), count((r) => r.all)];
  return {
    tasks: n,
    avg_score: n ? rows.reduce((s, r) => s + r.avg, 0) / n : 0,
    avg_pass: n ? a / n : 0,
    any_pass: n ? y / n : 0,
    all_pass: n ? l / n : 0,
    n_avg_pass: a,
    n_any_pass: y,
    n_all_pass: l,
  };
}

/** Claw-Eval's splits are tags (§5): multimodal, multi_turn (a user agent), else general. */
export function splitOf(t: { tags?: readonly string[]; user_agent?: { enabled?: boolean } | undefined }): string {
  if (t.tags?.includes('multimodal')) return 'multimodal';
  if (t.user_agent?.enabled || t.tags?.includes('user_agent')) return 'multi_turn';
  return 'general';
}

/** Score histogram for charts: `bins` equal bins over [0, 1], the last one closed. */
export function histogram(scores: readonly number[], bins = 10): { from: number; to: number; count: number }[] {
  const out = Array.from({ length: bins }, (_, i) => ({ from: i / bins, to: (i + 1) / bins, count: 0 }));
  for (const s of scores) out[Math.min(bins - 1, Math.max(0, Math.floor(s * bins + 1e-9)))]!.count++;
  return out;
}
