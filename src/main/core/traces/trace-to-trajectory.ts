import {
  gradingView,
  type AuditSnapshot,
  type Compaction,
  type Dispatch,
  type EventMeta,
  type Grading,
  type MediaLoad,
  type Message,
  type RunEnd,
  type Trajectory,
} from '../../../shared/contract/entities/trajectory';
import { compact, messagesFromTrace } from './trace-messages';
import { TraceError, type ReadEvent, type TraceIssue } from './trace-read';

/** Claw-Eval's scores that are fractions by definition (the efficiency figures are counts and seconds). */
const UNIT_SCORES = ['completion', 'robustness', 'communication', 'safety'] as const;

/**
 * A task_score or dimension score outside [0, 1]. Upstream's pydantic model takes any float, but
 * Claw-Eval computes them as fractions, and the pass rule (≥ 0.75), the means and the pools'
 * minimum rewards assume that range: a trace saying 7 is refused with its line and field rather
 * than stored as a reward of 7 (issue 16; the other import formats refuse the same way).
 */
function scoresOutOfRange(
  line: number,
  e: { type: string; task_score: number; scores: Record<(typeof UNIT_SCORES)[number], number> },
): TraceIssue[] {
  const fields: [string, number][] = [
    ['task_score', e.task_score],
    ...UNIT_SCORES.map((k): [string, number] => [`scores.${k}`, e.scores[k]]),
  ];
  return fields
    .filter(([, v]) => !(v >= 0 && v <= 1))
    .map(([f, v]) => ({ line, message: `${e.type}.${f}: ${v} is outside [0, 1] (a score is a fraction)` }));
}

/**
 * Validated trace events → a Trajectory, keeping everything the format holds: each item remembers
 * its event index (seq) and timestamp so the writer reproduces the file byte for byte. Cross-event
 * problems are errors naming the line: a tool_result or tool_dispatch whose tool_use_id no earlier
 * tool_use made, a dispatch whose tool differs from its call's, a missing or repeated trace_start,
 * a repeated trace_end, an event of another trace_id.
 */
export function trajectoryFromEvents(
  events: readonly ReadEvent[],
  o: { source?: string; file?: string | null } = {},
): { trajectory: Trajectory; warnings: string[] } {
  const source = o.source ?? 'trace';
  const issues: TraceIssue[] = [];
  const warnings: string[] = [];
  const callNames = new Map<string, string>();
  const callLines = new Map<string, number>();
  const messages: Message[] = [];
  const dispatches: Dispatch[] = [];
  const audits: AuditSnapshot[] = [];
  const media: MediaLoad[] = [];
  const compactions: Compaction[] = [];
  const gradings: Grading[] = [];
  let start:
    | { line: number; trace_id: string; task_id: string; model: string; persona: string; meta: EventMeta }
    | undefined;
  let end: { line: number; value: RunEnd } | undefined;

  events.forEach(({ line, event: e }, seq) => {
    const meta: EventMeta = { seq, timestamp: e.timestamp };
    switch (e.type) {
      case 'trace_start':
        if (start)
          issues.push({
            line,
            message: `a second trace_start (the first is on line ${start.line}); one trace per file`,
          });
        else start = { line, trace_id: e.trace_id, task_id: e.task_id, model: e.model, persona: e.persona, meta };
        break;
      case 'message': {
        const onUnknownResult = (id: string) =>
          issues.push({
            line,
            message: `tool_result for an unknown call: tool_use_id ${JSON.stringify(id)} matches no earlier tool_use`,
          });
        messages.push(
          ...messagesFromTrace(e.message, { seq, timestamp: e.timestamp, usage: e.usage, callNames, onUnknownResult }),
        );
        for (const b of e.message.content) {
          if (b.type !== 'tool_use') continue;
          callNames.set(b.id, b.name);
          callLines.set(b.id, line);
        }
        break;
      }
      case 'tool_dispatch': {
        const name = callNames.get(e.tool_use_id);
        if (name === undefined)
          issues.push({
            line,
            message:
              `tool_dispatch for an unknown call: tool_use_id ${JSON.stringify(e.tool_use_id)} matches no ` +
              `earlier tool_use`,
          });
        else if (name !== e.tool_name)
          issues.push({
            line,
            message:
              `tool_dispatch of ${e.tool_name}, but call ${e.tool_use_id} (line ` +
              `${callLines.get(e.tool_use_id)}) is a call of ${name}`,
          });
        dispatches.push({
          call_id: e.tool_use_id,
          tool: e.tool_name,
          endpoint: e.endpoint_url,
          args: e.request_body as Record<string, unknown>,
          status: e.response_status,
          body: e.response_body,
          latency_ms: e.latency_ms,
          meta,
        });
        break;
      }
      case 'audit_snapshot':
        audits.push({ service: e.service_name, url: e.audit_url, data: e.audit_data as Record<string, unknown>, meta });
        break;
      case 'media_load': {
        const { type: _t, trace_id: _i, timestamp: _s, ...rest } = e;
        media.push({ ...rest, meta });
        break;
      }
      case 'compact': {
        const { type: _t, trace_id: _i, timestamp: _s, ...rest } = e;
        compactions.push({ ...rest, meta });
        warnings.push(
          `${source} line ${line}: a compact event — kept, but upstream's load_trace does not know this type and ` +
            `raises on it`,
        );
        break;
      }
      case 'trace_end': {
        issues.push(...scoresOutOfRange(line, e));
        const { type: _t, trace_id: _i, timestamp: _s, ...rest } = e;
        if (end) issues.push({ line, message: `a second trace_end (the first is on line ${end.line})` });
        else end = { line, value: compact({ ...rest, meta }) };
        break;
      }
      case 'grading_result': {
        issues.push(...scoresOutOfRange(line, e));
        const { type: _t, trace_id: _i, timestamp: _s, ...rest } = e;
        gradings.push({
          ...rest,
          judge_calls: rest.judge_calls as Record<string, unknown>[],
          user_agent_meta: rest.user_agent_meta as Record<string, unknown>,
          meta,
        });
        break;
      }
    }
  });
  if (!start)
    issues.push({
      line: events[0]?.line ?? 1,
      message: "no trace_start event: not a Claw-Eval trace (upstream's load_trace requires one)",
    });
  else
    for (const { line, event } of events)
      if (event.trace_id !== start.trace_id)
        issues.push({
          line,
          message:
            `trace_id ${event.trace_id} differs from the trace_start's ${start.trace_id} (line ` +
            `${start.line}); one trace per file`,
        });
  if (issues.length) throw new TraceError(issues.sort((a, b) => a.line - b.line).slice(0, 50), source, issues.length);
  const s = start!;
  if (!end) warnings.push(`${source}: no trace_end event — the run may have been cut short`);
  const trajectory: Trajectory = {
    trajectory_id: `claw-eval/${s.task_id}/${s.trace_id}`,
    task_id: s.task_id,
    model: s.model,
    source: { format: 'claw-eval-trace', file: o.file ?? null },
    trace: { trace_id: s.trace_id, persona: s.persona, meta: s.meta },
    tools: [],
    messages,
    dispatches,
    audits,
    media,
    compactions,
    end: end?.value ?? null,
    gradings,
    ...gradingView(gradings),
    termination: null,
    metadata: {},
  };
  return { trajectory, warnings };
}
