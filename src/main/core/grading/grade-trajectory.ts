import type { GradeResult } from '../../../shared/contract/entities/checks';
import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import type { Trajectory } from '../../../shared/contract/entities/trajectory';
import { grade } from './grade';
import { runRecordOf } from './run-record';

/** A read trace graded against `spec` (stored as `taskId`), with what makes the grade less telling than it looks. */
export function gradeTrajectory(
  spec: TaskSpec,
  t: Trajectory,
  taskId: string,
): { grade: GradeResult; warnings: string[] } {
  const warnings: string[] = [];
  if (t.task_id !== taskId)
    warnings.push(`the trace is a run of task ${t.task_id}, graded here against the checks of ${taskId}`);
  const snapshotted = new Set(t.audits.map((a) => a.service));
  const unaudited = [...new Set(spec.checks.flatMap((c) => (c.kind === 'audit' ? [c.service] : [])))].filter(
    (s) => !snapshotted.has(s),
  );
  if (unaudited.length)
    warnings.push(
      `the trace has no audit_snapshot of ${unaudited.join(', ')}: the audit checks on ` +
        `${unaudited.length > 1 ? 'them' : 'it'} find no records`,
    );
  return { grade: grade(spec, runRecordOf(t)), warnings };
}
