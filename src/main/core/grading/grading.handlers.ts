import type { HandlerMap } from '../lib/handler-types';
import { storedTaskSpec } from '../tasks/task-spec-of';
import { tasksRepo } from '../tasks/tasks.repo';
import { readTraceInput } from '../traces';
import { gradeTrajectory } from './grade-trajectory';
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
