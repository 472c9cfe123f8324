import { createHash } from 'node:crypto';
import { Trajectory } from '../../../shared/contract/entities/trajectory';
import { GradeResult } from '../../../shared/contract/entities/checks';
import { gradeTrajectory } from '../grading/grading.handlers';
import type { HandlerMap } from '../lib/handler-types';
import { notFound } from '../lib/errors';
import { dumpsCompact, PyFloat, type PyValue } from '../services/pyjson';
import { storedTaskSpec } from '../tasks/task-spec-of';
import { tasksRepo } from '../tasks/tasks.repo';
import { readTraceInput, writeTrace } from '../traces';
import { trajectoriesRepo, trajectoriesWriter } from './trajectories.repo';

export const trajectoriesHandlers = {
  /**
   * Reads, grades and stores in the one write transaction (mutations are synchronous). The trace
   * text is kept as it came, so an export is byte-identical even for a trace our writer would
   * normalise; the Trajectory beside it is what the app works on.
   */
  'trajectories.importTrace': (input, ctx) => {
    const read = readTraceInput(input.traceJsonl);
    const t = read.trajectory;
    const warnings = [...read.warnings];
    const repo = trajectoriesRepo(ctx.db);
    const traceId = t.trace?.trace_id ?? t.trajectory_id;
    const contentHash = createHash('sha256').update(input.traceJsonl).digest('hex');
    const prev = repo.findTrace(traceId, contentHash);
    if (prev) {
      if (input.taskId && input.taskId !== prev.task_id)
        warnings.push(
          `this trace is already stored as trajectory #${prev.id} of task ${prev.task_id}; --task ${input.taskId} ` +
            `was not applied`,
        );
      return {
        id: prev.id,
        taskId: prev.task_id,
        graded: prev.graded,
        score: prev.score,
        passed: prev.passed,
        warnings,
        duplicate: true,
      };
    }
    const taskId = input.taskId ?? t.task_id;
    const tasks = tasksRepo(ctx.db);
    let grade: GradeResult | null = null;
    if (tasks.get(taskId)) {
      const g = gradeTrajectory(storedTaskSpec(tasks, taskId).spec, t, taskId);
      grade = g.grade;
      warnings.push(...g.warnings);
    } else warnings.push(`task ${taskId} is not in the workspace: the trajectory is stored ungraded`);
    // Not an error: upstream's reader normalises the same things; the user should know the stored Trajectory differs
    // in bytes.
    if (writeTrace(t) !== input.traceJsonl)
      warnings.push(
        'the trace is not byte-for-byte what upstream writes; it is exported exactly as imported, but the stored ' +
          'trajectory writes it back normalised',
      );
    const id = trajectoriesWriter(ctx.db).insert(
      {
        taskId,
        traceId,
        contentHash,
        model: t.model,
        counts: countsOf(t),
        grade: grade && {
          completion: grade.completion,
          safety: grade.safety,
          robustness: grade.robustness,
          score: grade.score,
          passed: grade.passed,
          checksOrigin: grade.checksOrigin,
        },
        trace: input.traceJsonl,
        trajectoryJson: dumpsCompact(withoutUndefined(t as unknown as PyValue)),
        gradeJson: grade && JSON.stringify(grade),
      },
      ctx.now(),
    );
    ctx.touch('trajectories', [id]);
    return {
      id,
      taskId,
      graded: grade !== null,
      score: grade?.score ?? null,
      passed: grade?.passed ?? null,
      warnings,
      duplicate: false,
    };
  },
  'trajectories.list': (input, ctx) => trajectoriesRepo(ctx.db).list(input),
  /** Plain JSON.parse: free-form floats become numbers here; exportTrace keeps their exact text. */
  'trajectories.get': (input, ctx) => {
    const repo = trajectoriesRepo(ctx.db);
    const row = repo.row(input.id);
    const body = repo.body(input.id);
    if (!row || !body) throw notFound(`trajectory ${input.id}`);
    return {
      row,
      trajectory: Trajectory.parse(JSON.parse(body.trajectory)),
      grade: body.grade === null ? null : GradeResult.parse(JSON.parse(body.grade)),
    };
  },
  'trajectories.exportTrace': (input, ctx) => {
    const body = trajectoriesRepo(ctx.db).body(input.id);
    if (!body) throw notFound(`trajectory ${input.id}`);
    return { traceJsonl: body.trace };
  },
} satisfies Partial<HandlerMap>;

/** Python's len(): code points, so a CJK or emoji message counts as the model's text does. */
const codePoints = (s: string) => s.length - (s.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);

/** The grid's size columns: messages, tool calls made, and characters of message text and call arguments. */
export function countsOf(t: Trajectory): { messages: number; toolCalls: number; chars: number } {
  let toolCalls = 0;
  let chars = 0;
  for (const m of t.messages) {
    chars += codePoints(m.content ?? '');
    if (m.role !== 'assistant') continue;
    toolCalls += m.tool_calls.length;
    for (const c of m.tool_calls) chars += codePoints(c.function.arguments);
  }
  return { messages: t.messages.length, toolCalls, chars };
}

/** Optional fields left undefined would be written `null` by dumpsPy and then fail the schema on the way back. */
function withoutUndefined(v: PyValue): PyValue {
  if (v === null || typeof v !== 'object' || v instanceof PyFloat) return v;
  if (Array.isArray(v)) return v.map(withoutUndefined);
  const out: Record<string, PyValue> = {};
  for (const k in v) if (v[k] !== undefined) out[k] = withoutUndefined(v[k]!);
  return out;
}
