import { PASS_THRESHOLD } from '../grading/robustness';

/**
 * Which rule decides that a trial passed, per source (formats.md §2.1 rule 7, §2.2 rule 10, §5.3).
 * - `score-0.75`: Claw-Eval's and the app's own — score ≥ 0.75. It applies to every score from the shared
 *   grader, and to the reward of a source that has no rule of its own.
 * - `reward-is-1`: τ-bench's and τ²-bench's `is_successful`, `(1 - 1e-6) <= reward <= (1 + 1e-6)`. Applying
 *   0.75 to their rewards would count partial rewards as successes their own metrics never count.
 * The two also differ beyond a task's trials: Claw-Eval's leaderboard pads missing trials with 0.0, τ²-bench
 * refuses (its pass_hat_k raises when num_trials < k, and it reports pass^k only up to the fewest trials).
 */
export type PassRuleId = 'score-0.75' | 'reward-is-1';

export const PASS_RULES: Record<PassRuleId, { description: string; beyond_trials: 'padded' | 'refused' }> = {
  'score-0.75': {
    description: `score ≥ ${PASS_THRESHOLD} (Claw-Eval); missing trials padded with failures, as its leaderboard does`,
    beyond_trials: 'padded',
  },
  'reward-is-1': {
    description: 'reward within 1e-6 of 1 (τ-bench / τ²-bench is_successful); pass^k refused for k above the trials',
    beyond_trials: 'refused',
  },
};

/** Formats whose own reward is judged by τ's rule; every other source's reward by Claw-Eval's. */
const TAU_FORMATS = new Set(['tau-bench-v1', 'tau2-results']);

/** The rule for one trial: a shared-grader score is always Claw-Eval's; a source's reward is its source's. */
export const ruleOf = (sourceFormat: string | null, graded: boolean): PassRuleId =>
  !graded && sourceFormat !== null && TAU_FORMATS.has(sourceFormat) ? 'reward-is-1' : 'score-0.75';

/** τ's is_successful, as upstream writes it. */
export const isSuccessful = (reward: number) => 1 - 1e-6 <= reward && reward <= 1 + 1e-6;

/**
 * Whether a trial passed. A verdict the row already holds wins: the grader's stored `passed` for a graded
 * trial (it may gate more than the threshold), the source's own `source_success` for a reward (the source's
 * decision — for τ files the importer derives it with is_successful, so the two cannot disagree). Without
 * one, the trial's rule decides on the score.
 */
export function passOf(rule: PassRuleId, score: number, verdict: number | null): boolean {
  if (verdict !== null) return verdict === 1;
  return rule === 'reward-is-1' ? isSuccessful(score) : score >= PASS_THRESHOLD;
}
