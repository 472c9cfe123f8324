import { readTrace, TraceError } from '../../traces';
import type { FormatContext, Normalized } from './normalized';

/** A trace that cannot be read: every bad line (1-based in the file), and how many there are in all. */
export class TraceRecordError extends Error {
  constructor(
    readonly issues: { line: number; message: string }[],
    readonly count: number,
  ) {
    super(issues.map((i) => `line ${i.line}: ${i.message}`).join('; '));
  }
}

/**
 * A Claw-Eval trace file (one trace per file, reference/claw-eval.md §8) through the trace reader.
 * Claw-Eval traces carry no trial number: the next free trial of the task in the collection is taken.
 */
export function readClawEval(text: string, ctx: FormatContext): Normalized {
  let read: ReturnType<typeof readTrace>;
  try {
    read = readTrace(text, { source: ctx.file ?? 'trace', file: ctx.file });
  } catch (err) {
    if (err instanceof TraceError) throw new TraceRecordError(err.issues, err.count);
    throw err;
  }
  const t = read.trajectory;
  const last = t.gradings[t.gradings.length - 1];
  const failures = t.end?.failure_modes ?? [];
  return {
    trajectory: t,
    row: {
      traceId: t.trace?.trace_id ?? t.trajectory_id,
      sourceTaskId: t.task_id,
      taskSource: null,
      trial: null,
      reward: t.reward,
      success: last ? last.passed : null,
      tokens: t.end ? t.end.total_tokens : null,
      durationMs: t.end ? Math.round(t.end.wall_time_s * 1000) : null,
      error: failures.length ? failures.join('; ') : null,
      gradable: true,
    },
    warnings: read.warnings,
  };
}
