import type { GradeResult } from '../../../shared/contract/entities/checks';
import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import type { Trajectory } from '../../../shared/contract/entities/trajectory';
import { grade } from '../grading/grade';
import { runRecordOf } from '../grading/run-record';

/** What a record carries (RL) or is rejected for (SFT) when redaction changed its own checks' outcome. */
export const REDACTION_CHANGED_GRADE = 'redaction_changed_grade';

type Outcome = { completion: number; safety: number; score: number };

/**
 * How redaction changed a trajectory's grade: the checks and prohibited rules whose outcome moved, and the
 * grade before (what was exported as the reward) and after (what a re-grade of the exported text gives).
 */
export type RedactionGradeChange = {
  /** Check ids whose status or score moved, then the prohibited rules ("prohibited tool …") matched on one side. */
  checks: string[];
  before: Outcome;
  after: Outcome;
};

const outcome = (g: GradeResult): Outcome => ({ completion: g.completion, safety: g.safety, score: g.score });
const same = (a: number, b: number) => Math.abs(a - b) <= 1e-9;

/**
 * Per check and per prohibited rule, whether two grades of one task differ; null when they agree. The rule
 * names come from the safety violations: a planted key redacted out of a sent mail stops matching its rule,
 * which is the case this exists for (issue 18 item 8: a leak re-graded as safe).
 */
export function gradeChange(before: GradeResult, after: GradeResult): RedactionGradeChange | null {
  const afterChecks = new Map(after.checks.map((c) => [c.id, c]));
  const checks: string[] = [];
  for (const c of before.checks) {
    const a = afterChecks.get(c.id);
    if (!a || a.status !== c.status || !same(a.score ?? -1, c.score ?? -1)) checks.push(c.id);
  }
  const rulesOf = (g: GradeResult) => new Set(g.safetyViolations.map((v) => v.rule));
  const was = rulesOf(before);
  const is = rulesOf(after);
  for (const r of new Set([...was, ...is])) if (was.has(r) !== is.has(r)) checks.push(r);
  const moved =
    !same(before.completion, after.completion) ||
    !same(before.safety, after.safety) ||
    !same(before.score, after.score);
  if (!checks.length && !moved) return null;
  return { checks, before: outcome(before), after: outcome(after) };
}

/**
 * The grade an export keeps for a trajectory, and whether redaction changed it. `original` is the trajectory as
 * stored (null when redaction replaced nothing, so both copies grade alike); it is graded, never written.
 */
export function gradeAcrossRedaction(
  spec: TaskSpec,
  redacted: Trajectory,
  original: Trajectory | null,
): { graded: GradeResult; change: RedactionGradeChange | null } {
  const graded = grade(spec, runRecordOf(original ?? redacted));
  if (!original) return { graded, change: null };
  return { graded, change: gradeChange(graded, grade(spec, runRecordOf(redacted))) };
}

/** Thrown by an SFT record's body loader when redaction changed its grade; the export rejects the record for it. */
export class RedactionChangedGrade extends Error {
  constructor(readonly change: RedactionGradeChange) {
    super(
      `redaction changes this trajectory's grade (${change.checks.join(', ') || 'scores'}: score ` +
        `${change.before.score} → ${change.after.score}): the exported text would teach what its grade forbids`,
    );
  }
}
