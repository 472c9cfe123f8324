import type { Trajectory } from '../../../shared/contract/entities/trajectory';
import { callLocations } from '../../../shared/contract/entities/call-locations';
import { runRecordFrom, type RunRecord } from '../grading/grade';
import { formatConversation } from '../grading/judge/judge-inputs';
import type { PyObject } from '../services/pyjson';
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

/** load_trace's audit_data: service → audit JSON, the last snapshot of a service winning. */
export function lastAudits(t: Pick<Trajectory, 'audits'>): Record<string, PyObject> {
  const out: Record<string, PyObject> = {};
  for (const a of t.audits) out[a.service] = a.data as PyObject;
  return out;
}

/**
 * What the shared grader reads from a trajectory: the dispatches (tool, request body, status; for
 * evidence, the call id and the message that made the call), the final text = the text of the last
 * assistant message (its index is the evidence), and the audits (the last snapshot per service,
 * minus `calls`).
 */
export function runRecordOf(t: Pick<Trajectory, 'dispatches' | 'messages' | 'audits'>): RunRecord {
  let idx = -1;
  for (let i = t.messages.length - 1; i >= 0; i--) {
    if (t.messages[i]!.role === 'assistant') {
      idx = i;
      break;
    }
  }
  const at = callLocations(t);
  const dispatches = t.dispatches.map((d, i) => ({
    tool: d.tool,
    args: d.args,
    status: d.status,
    ...(at[i] ? { call_id: at[i].call_id, message: at[i].message } : {}),
  }));
  const final = idx >= 0 ? (t.messages[idx]!.content ?? '') : '';
  return runRecordFrom(
    dispatches,
    lastAudits(t),
    final as string,
    idx >= 0 ? idx : undefined,
    formatConversation(t.messages),
  );
}
