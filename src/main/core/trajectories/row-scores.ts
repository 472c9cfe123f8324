import type { GradeResult } from '../../../shared/contract/entities/checks';

/** The app grade's columns of a trajectory row (migration 0018). */
export type AppRowScores = {
  completion: number | null;
  /** Null while a safety rule awaits the judge (or cannot be evaluated). */
  safety: number | null;
  robustness: number;
  score: number | null;
  passed: boolean | null;
  /** The weight of checks awaiting a judge; null when none. */
  appPending: number | null;
};

/**
 * A grade as the row stores it. With judge-pending weight the completion, score and pass are unknown, not the lower
 * bound grade() computes (pending counted 0): NULL, so no mean, pass rate, bucket or export threshold counts the row
 * as a failure (issue 19 item 2). A safety violation settles the score at 0 and the pass at no whatever a judge
 * would say (score = safety × …), so those stay known; the completion does not. The grade JSON keeps the lower bound
 * and the pending checks for the viewer.
 */
export function appRowScores(g: GradeResult): AppRowScores {
  const pending = g.pendingWeight > 0;
  // A judge-pending (or unevaluable) safety rule leaves safety unknown unless a violation settled it at 0: the 1.0
  // grade() reports is an upper bound, so safety, score and pass are NULL like a judge-pending completion.
  const safetyUnknown = g.safety !== 0 && (g.safetyNotEvaluated?.length ?? 0) > 0;
  const settled = (!pending && !safetyUnknown) || g.safety === 0;
  return {
    completion: pending ? null : g.completion,
    safety: safetyUnknown ? null : g.safety,
    robustness: g.robustness,
    score: settled ? g.score : null,
    passed: settled ? g.passed : null,
    appPending: pending ? g.pendingWeight : null,
  };
}
