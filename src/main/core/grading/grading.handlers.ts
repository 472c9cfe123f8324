import type { GradeResult } from '../../../shared/contract/entities/checks';
import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import type { Trajectory } from '../../../shared/contract/entities/trajectory';
import type { HandlerMap } from '../lib/handler-types';
import { storedTaskSpec } from '../tasks/task-spec-of';
import { tasksRepo } from '../tasks/tasks.repo';
import { readTraceInput, runRecordOf } from '../traces';
import { grade } from './grade';
import { updateCheck } from './update-check';

export const gradingHandlers = {
  /**
   * An external trace graded by the shared grader: dispatches (tool_name, request_body,
   * response_status), the last assistant message's text, and the last audit snapshot per service
   * minus `calls`. No judge endpoint is configured yet, so llm_judge checks come back "not graded"
   * and the result is marked incomplete.
   */
  'grading.gradeTrace': (input, ctx) => {
    const { spec } = storedTaskSpec(tasksRepo(ctx.db), input.taskId);
    const read = readTraceInput(input.traceJsonl);
    const t = read.trajectory;
    const g = gradeTrajectory(spec, t, input.taskId);
    return { grade: g.grade, taskIdInTrace: t.task_id, warnings: [...read.warnings, ...g.warnings] };
  },
  'grading.updateCheck': (input, ctx) => {
    const { ids, ...out } = updateCheck(ctx.db, input, ctx.now());
    ctx.touch('tasks');
    ctx.touch('validation_reports');
    if (ids.length) ctx.touch('trajectories', ids);
    return out;
  },
} satisfies Partial<HandlerMap>;

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
