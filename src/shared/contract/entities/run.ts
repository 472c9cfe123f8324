import { z } from 'zod';

const Share = z.number().min(0).max(1);
/** score-0.75: Claw-Eval's and the app's (score ≥ 0.75); reward-is-1: τ-bench / τ²-bench is_successful. */
const PassRule = z.enum(['score-0.75', 'reward-is-1']);

/** What a finished runs.start job leaves (counted from the workspace, so a resumed run counts everything). */
export const RunResult = z.object({
  runId: z.number().int(),
  collection: z.string(),
  agent: z.string(),
  /** task × trial pairs. */
  planned: z.number().int(),
  /** Trajectories stored (errored ones included). */
  stored: z.number().int(),
  /** Pairs already stored before this attempt (a resume). */
  skipped: z.number().int(),
  /** Trajectories whose run failed (a model error after retries): stored as invalid, re-run on resume. */
  errors: z.number().int(),
  graded: z.number().int(),
  passed: z.number().int(),
  /** passed / valid trajectories with a known score (0 when none): judge-pending ones are left out. */
  pass_rate: Share,
  mean_score: z.number().nullable(),
  /** Tokens of the agent's model calls (0 for the reference agent). */
  tokens: z.number().int(),
  /** Valid trajectories whose score waits for an LLM judge (none configured, or it failed): not failures. */
  judge_pending: z.number().int(),
});
export type RunResult = z.infer<typeof RunResult>;

export const RunRow = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(['run', 'import']),
  agent_kind: z.enum(['model', 'reference', 'imported']),
  agent_label: z.string(),
  endpoint_name: z.string().nullable(),
  model: z.string().nullable(),
  user_simulator: z.string().nullable(),
  collection: z.string().nullable(),
  trials: z.number().int(),
  concurrency: z.number().int(),
  state: z.enum(['pending', 'running', 'done', 'failed', 'cancelled', 'interrupted']),
  job_id: z.string().nullable(),
  planned: z.number().int(),
  stored: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  error: z.string().nullable(),
  trajectories: z.number().int(),
  passed: z.number().int(),
  mean_score: z.number().nullable(),
  tokens: z.number().int(),
  /** Valid trajectories whose score waits for an LLM judge: neither passed nor failed. */
  judge_pending: z.number().int(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type RunRow = z.infer<typeof RunRow>;

/** Per task over its trials (reference/formats.md §5, reference/claw-eval.md §9.3). */
export const TaskReport = z.object({
  task_id: z.string(),
  task_name: z.string().nullable(),
  split: z.string(),
  category: z.string(),
  /** Trials with a score (graded, or the source's reward), errored ones excluded. */
  trials: z.number().int(),
  errored: z.number().int(),
  passed: z.number().int(),
  /** Failures added to reach k (Claw-Eval's rule only). */
  padded: z.number().int(),
  /** The source's pass rule for this task's trials (formats.md §5.3): see RunReport.rules. */
  rule: PassRule,
  /** k exceeds the graded trials: padded under Claw-Eval's rule, refused (k-figures null) under τ's. */
  beyond_trials: z.boolean(),
  scores: z.array(z.number()),
  mean_score: z.number().nullable(),
  completion: z.number().nullable(),
  safety: z.number().nullable(),
  /** 1 − C(n−c, k)/C(n, k) over the trials padded to k; null when refused (τ's rule, k > n). */
  pass_at_k: Share.nullable(),
  /** C(c, k)/C(n, k): k trials all pass under the task's rule; with n = k, "all k trials pass". Null: refused. */
  pass_hat_k: Share.nullable(),
  /** Claw-Eval's compute_pass_hat_k, (c/n)^k; null when refused. */
  pass_hat_k_plugin: Share.nullable(),
});
export type TaskReport = z.infer<typeof TaskReport>;

/** Claw-Eval's leaderboard row (score_summary.py), trials padded with 0.0 to k. */
export const Leaderboard = z.object({
  tasks: z.number().int(),
  avg_score: z.number(),
  avg_pass: Share,
  any_pass: Share,
  all_pass: Share,
  n_avg_pass: z.number().int(),
  n_any_pass: z.number().int(),
  n_all_pass: z.number().int(),
});

export const Summary = z.object({
  tasks: z.number().int(),
  trials: z.number().int(),
  errored: z.number().int(),
  mean_score: z.number().nullable(),
  completion: z.number().nullable(),
  safety: z.number().nullable(),
  /** Tasks whose k-figures are refused; when any is, the means are null too (τ²-bench reports no pass^k then). */
  refused: z.number().int(),
  pass_at_k: Share.nullable(),
  pass_hat_k: Share.nullable(),
  pass_hat_k_plugin: Share.nullable(),
});

const Bin = z.object({ from: z.number(), to: z.number(), count: z.number().int() });

export const RunReport = z.object({
  scope: z.object({ runId: z.number().int().nullable(), collection: z.string().nullable(), label: z.string() }),
  k: z.number().int(),
  threshold: z.number(),
  /**
   * The pass rule of each source in the report: a shared-grader score is judged by Claw-Eval's, a source's
   * own reward by its source's. The leaderboard row covers only the tasks under Claw-Eval's rule.
   */
  rules: z.array(
    z.object({
      /** The trajectories' source_format, or "graded" for scores of the shared grader. */
      source: z.string(),
      rule: PassRule,
      description: z.string(),
      beyond_trials: z.enum(['padded', 'refused']),
      trials: z.number().int(),
    }),
  ),
  /**
   * How many scores are the shared grader's and how many are the source's own reward (ungraded imports, and rows of
   * collections whose score basis is the record); `judge_pending`: trials whose score of record waits for an LLM
   * judge — left out of every figure, like a missing score (formats.md §6.3), not counted as failures or errors.
   */
  basis: z.object({
    graded: z.number().int(),
    source_reward: z.number().int(),
    none: z.number().int(),
    judge_pending: z.number().int().default(0),
  }),
  overall: Summary.extend({ leaderboard: Leaderboard }),
  groups: z.array(Summary.extend({ by: z.enum(['split', 'category']), value: z.string(), leaderboard: Leaderboard })),
  tasks: z.array(TaskReport),
  histograms: z.object({
    /** Every scored trajectory's score. */
    trajectory_scores: z.array(Bin),
    /** Each task's mean score. */
    task_mean_scores: z.array(Bin),
  }),
});
export type RunReport = z.infer<typeof RunReport>;
