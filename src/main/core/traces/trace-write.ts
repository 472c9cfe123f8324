import { randomUUID } from 'node:crypto';
import type { DimensionScores, EventMeta, Message, Trajectory } from '../../../shared/contract/entities/trajectory';
import { pyIsoTimestamp } from '../services/define';
import type { PyObject, PyValue } from '../py/pyjson';
import { dumpsPydantic, f } from './pydantic-json';
import type { ContentBlock } from './trace-events';
import { fieldsKey, messagesFromTrace, renderBlocks, traceRole, usageToTrace } from './trace-messages';

export type WriteOptions = {
  /** Timestamp of events that have none (trajectories made in the app); default: the wall clock. */
  now?: () => Date;
  /** trace_id when the trajectory has no trace identity; default: a new uuid4. */
  traceId?: string;
  /**
   * Leave out `compact` events, which upstream's load_trace cannot read (it raises on the type).
   * Default false: a round trip keeps them.
   */
  forUpstream?: boolean;
};

type Line = { seq: number | undefined; text: string };
const scoresWire = (s: DimensionScores) => ({
  completion: f(s.completion),
  robustness: f(s.robustness),
  communication: f(s.communication),
  safety: f(s.safety),
  efficiency_turns: s.efficiency_turns,
  efficiency_tokens: s.efficiency_tokens,
  efficiency_wall_time_s: f(s.efficiency_wall_time_s),
});

/** Consecutive messages of one trace message: same seq, or (without seqs) a run of tool messages. */
function groups(messages: readonly Message[]): Message[][] {
  const out: Message[][] = [];
  for (const m of messages) {
    const prev = out[out.length - 1];
    const last = prev?.[prev.length - 1];
    const seq = m.meta?.trace?.seq;
    const same =
      last &&
      (seq !== undefined
        ? last.meta?.trace?.seq === seq
        : m.role === 'tool' && last.role === 'tool' && last.meta?.trace?.seq === undefined);
    if (same) prev.push(m);
    else out.push([m]);
  }
  return out;
}

/**
 * A Trajectory → Claw-Eval trace JSONL (reference/claw-eval.md §8): every event `type` first, then
 * `trace_id`, the type's fields in upstream's order, `timestamp` last; pydantic's compact JSON, one
 * event per line, each ending in "\n". When every item carries its source seq the events come out in
 * that order (a trace read in comes out byte-identical); otherwise in upstream's order (§8.3):
 * start, media, messages with each assistant turn's dispatches after it, audits, end, gradings.
 */
export function writeTrace(t: Trajectory, o: WriteOptions = {}): string {
  const now = o.now ?? (() => new Date());
  const traceId = t.trace?.trace_id ?? o.traceId ?? randomUUID();
  const line = (type: string, fields: Record<string, PyValue | undefined>, meta: EventMeta | undefined): Line => ({
    seq: meta?.seq,
    text: dumpsPydantic({
      type,
      trace_id: traceId,
      ...fields,
      timestamp: meta?.timestamp ?? pyIsoTimestamp(now()),
    } as PyObject),
  });

  const start = line(
    'trace_start',
    { task_id: t.task_id, model: t.model, persona: t.trace?.persona ?? 'default' },
    t.trace?.meta,
  );
  const media = t.media.map((m) =>
    line(
      'media_load',
      {
        modality: m.modality,
        source_path: m.source_path,
        mime_type: m.mime_type,
        size_bytes: m.size_bytes,
        sha256: m.sha256,
        status: m.status,
        note: m.note,
      },
      m.meta,
    ),
  );

  const callNames = new Map<string, string>();
  const messageLines: { line: Line; callIds: string[] }[] = [];
  for (const g of groups(t.messages)) {
    const first = g[0]!;
    const kept = first.meta?.trace?.blocks as ContentBlock[] | undefined;
    const reasoning = first.role === 'assistant' ? first.reasoning : (first.meta?.trace?.reasoning_content ?? null);
    let blocks: ContentBlock[] | undefined;
    if (kept) {
      // The verbatim blocks, unless the canonical fields were edited since they were read.
      const again = messagesFromTrace(
        { role: traceRole(first), content: kept, reasoning_content: reasoning },
        {
          seq: undefined,
          timestamp: undefined,
          usage: { input_tokens: 0, output_tokens: 0 },
          callNames,
          onUnknownResult: () => {},
        },
      );
      if (fieldsKey(again) === fieldsKey(g)) blocks = kept;
    }
    blocks ??= renderBlocks(g);
    const callIds: string[] = [];
    for (const b of blocks) if (b.type === 'tool_use') callNames.set(b.id, b.name), callIds.push(b.id);
    const message = { role: traceRole(first), content: blocks as unknown as PyValue, reasoning_content: reasoning };
    messageLines.push({
      line: line(
        'message',
        { message, usage: usageToTrace(first.meta?.usage) as PyObject },
        { seq: first.meta?.trace?.seq, timestamp: first.meta?.timestamp },
      ),
      callIds,
    });
  }

  const dispatches = t.dispatches.map((d) => ({
    callId: d.call_id,
    line: line(
      'tool_dispatch',
      {
        tool_use_id: d.call_id,
        tool_name: d.tool,
        endpoint_url: d.endpoint,
        request_body: d.args as PyObject,
        response_status: d.status,
        response_body: d.body as PyValue,
        latency_ms: f(d.latency_ms),
      },
      d.meta,
    ),
  }));
  const audits = t.audits.map((a) =>
    line('audit_snapshot', { service_name: a.service, audit_url: a.url, audit_data: a.data as PyObject }, a.meta),
  );
  const compactions = o.forUpstream
    ? []
    : t.compactions.map((c) =>
        line(
          'compact',
          {
            layer: c.layer,
            estimated_tokens_before: c.estimated_tokens_before,
            estimated_tokens_after: c.estimated_tokens_after,
            messages_before: c.messages_before,
            messages_after: c.messages_after,
          },
          c.meta,
        ),
      );
  const end = t.end ? [line('trace_end', endFields(t.end), t.end.meta)] : [];
  const gradings = t.gradings.map((g) =>
    line(
      'grading_result',
      {
        task_id: g.task_id,
        scores: scoresWire(g.scores),
        task_score: f(g.task_score),
        passed: g.passed,
        failure_modes: g.failure_modes,
        judge_calls: g.judge_calls as PyObject[],
        user_agent_meta: g.user_agent_meta as PyObject,
      },
      g.meta,
    ),
  );

  const all = [
    start,
    ...media,
    ...messageLines.map((m) => m.line),
    ...dispatches.map((d) => d.line),
    ...compactions,
    ...audits,
    ...end,
    ...gradings,
  ];
  let ordered: Line[];
  if (all.every((l) => l.seq !== undefined)) ordered = all.sort((a, b) => a.seq! - b.seq!);
  else {
    const pending = new Set(dispatches);
    ordered = [start, ...media];
    for (const m of messageLines) {
      ordered.push(m.line);
      // In call order: upstream dispatches a turn's calls one after the other.
      for (const id of m.callIds)
        for (const d of dispatches) if (pending.has(d) && d.callId === id) ordered.push(d.line), pending.delete(d);
    }
    ordered.push(...[...pending].map((d) => d.line), ...compactions, ...audits, ...end, ...gradings);
  }
  return ordered.map((l) => `${l.text}\n`).join('');
}

function endFields(e: NonNullable<Trajectory['end']>): Record<string, PyValue | undefined> {
  return {
    total_turns: e.total_turns,
    model_input_tokens: e.model_input_tokens,
    model_output_tokens: e.model_output_tokens,
    input_tokens: e.input_tokens,
    output_tokens: e.output_tokens,
    cached_input_tokens: e.cached_input_tokens,
    cache_creation_input_tokens: e.cache_creation_input_tokens,
    cache_read_input_tokens: e.cache_read_input_tokens,
    total_tokens: e.total_tokens,
    model_time_s: f(e.model_time_s),
    tool_time_s: f(e.tool_time_s),
    other_time_s: f(e.other_time_s),
    wall_time_s: f(e.wall_time_s),
    scores: scoresWire(e.scores),
    task_score: f(e.task_score),
    passed: e.passed,
    failure_modes: e.failure_modes,
    user_agent_rounds: e.user_agent_rounds,
    user_agent_max_rounds: e.user_agent_max_rounds,
    user_agent_done: e.user_agent_done,
  };
}
