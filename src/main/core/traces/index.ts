import type { Trajectory } from '../../../shared/contract/entities/trajectory';
import { AppError } from '../lib/errors';
import { readTraceEvents, TraceError } from './trace-read';
import { trajectoryFromEvents } from './trace-to-trajectory';

export { TraceError, type TraceIssue } from './trace-read';
export { writeTrace, type WriteOptions } from './trace-write';

/**
 * Claw-Eval trace JSONL → Trajectory (reference/claw-eval.md §8; decisions in README.md here).
 * Throws TraceError (every bad line with its number) for text that is not a readable trace.
 */
export function readTrace(
  text: string,
  o: { source?: string; file?: string | null } = {},
): { trajectory: Trajectory; warnings: string[] } {
  const { events, warnings } = readTraceEvents(text, o.source);
  const r = trajectoryFromEvents(events, o);
  return { trajectory: r.trajectory, warnings: [...warnings, ...r.warnings] };
}

/** readTrace for a procedure's input: a bad trace is INVALID_INPUT with one issue per bad line. */
export function readTraceInput(text: string): ReturnType<typeof readTrace> {
  try {
    return readTrace(text);
  } catch (err) {
    if (!(err instanceof TraceError)) throw err;
    throw new AppError(
      'INVALID_INPUT',
      `not a readable Claw-Eval trace: ${err.message}`,
      err.issues.map((i) => ({ path: ['traceJsonl', `line ${i.line}`], message: i.message })),
    );
  }
}
