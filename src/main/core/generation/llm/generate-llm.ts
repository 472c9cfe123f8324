import type { TaskSpec } from '../../../../shared/contract/entities/task-spec';
import type { Verdict } from '../../../../shared/contract/validation.contract';
import type { ChatMessage } from '../../agents/chat-types';
import { ModelError, type ModelClient, type ModelErrorKind } from '../../agents/model-client';
import { modelClientFor } from '../../endpoints/client-for';
import type { EndpointRow } from '../../endpoints/endpoints.repo';
import type { KeyAccess } from '../../endpoints/key-store';
import { validateAndRepair } from '../../validation/validate';
import { llmTaskId, normaliseCandidate, type LlmSlot } from './normalise';
import { parseAnswer } from './parse-answer';
import { generateMessages, notJsonMessages, repairMessages } from './prompt';

/** One request of a candidate's life, as the task's lineage keeps it (no key: the client never shows it). */
export type LineageRound = {
  round: number;
  kind: 'generate' | 'retry' | 'repair';
  prompt: ChatMessage[];
  /** The model's text as it came; null when the request failed. */
  answer: string | null;
  /** Why this round gave no candidate (not JSON, timeout, HTTP error); null when it did. */
  error: string | null;
  /** The validators' verdicts on the candidate this round produced. */
  verdicts: Verdict[] | null;
  /** Unified diff of this round's candidate against the previous candidate ('' for the first). */
  diff: string;
  endpoint: string;
  model: string;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  latency_ms: number;
  attempts: number;
  created_at: string;
};

export type DiscardReason = 'not_json' | 'timeout' | 'request_failed' | 'endpoint_error' | 'invalid_after_repair';

export type LlmOutcome = {
  index: number;
  taskId: string;
  status: 'valid' | 'repaired' | 'discarded';
  reasonKind: DiscardReason | null;
  /** Why it was discarded, in words (names the failed validators or the request error). */
  reason: string | null;
  rounds: LineageRound[];
};

export type LlmCounts = {
  candidates: number;
  valid_first: number;
  repaired: number;
  discarded: number;
  requests: number;
  retries: number;
  not_json: number;
  not_task_spec: number;
  timeouts: number;
  request_errors: number;
  prompt_tokens: number;
  completion_tokens: number;
};

export type LlmReport = {
  tasks: TaskSpec[];
  outcomes: LlmOutcome[];
  counts: LlmCounts;
  /** Why the slot stopped early: 'cancelled', or an endpoint failure every request would hit (401, 404, no key). */
  stopped: string | null;
};

export type GenerateWithLlmOptions = {
  /** A client for the endpoint (it carries the endpoint's name and model)… */
  client?: ModelClient;
  /** …or the stored endpoint and the keys to reach it (a job passes its ctx.keys). */
  endpoint?: EndpointRow;
  keys?: KeyAccess;
  seed: number;
  count: number;
  /** The first candidate index (a resumed job starts after what it committed). */
  start?: number;
  signal?: AbortSignal;
  /** Clock of lineage stamps (validation pins the task's own reference date). */
  now?: () => Date;
  /** Called after each candidate (progress, batch commits). */
  onOutcome?: (o: LlmOutcome, task: TaskSpec | null) => void;
};

/** Failures that every further request to this endpoint would repeat: stop the slot, say why. */
const FATAL: ReadonlySet<ModelErrorKind> = new Set(['no_key', 'key_refused', 'not_found', 'bad_request']);

type Asked =
  | { ok: true; value: Record<string, unknown>; answer: string; messages: ChatMessage[]; round: LineageRound }
  | { ok: false; kind: DiscardReason | 'aborted'; reason: string };

/**
 * The LLM generator for one slot: `count` candidates, each asked of the endpoint, parsed (JSON mode
 * when the endpoint supports it, else the first JSON object in the text), normalised to the slot,
 * validated, repaired once with the failed verdicts (validateAndRepair), else discarded with the
 * reason. An answer that is not JSON or a request that times out (or fails after the client's own
 * retries) is retried once, then the candidate is discarded. Every request is kept as lineage.
 */
export async function generateWithLlm(slot: LlmSlot, o: GenerateWithLlmOptions): Promise<LlmReport> {
  const now = o.now ?? (() => new Date());
  const counts: LlmCounts = {
    candidates: 0,
    valid_first: 0,
    repaired: 0,
    discarded: 0,
    requests: 0,
    retries: 0,
    not_json: 0,
    not_task_spec: 0,
    timeouts: 0,
    request_errors: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
  };
  const report: LlmReport = { tasks: [], outcomes: [], counts, stopped: null };
  let client: ModelClient;
  try {
    if (o.client) client = o.client;
    else if (o.endpoint) client = modelClientFor(o.endpoint, o.keys ?? { secrets: null, env: process.env });
    else throw new Error('generateWithLlm needs a client or an endpoint');
  } catch (err) {
    report.stopped = (err as Error).message; // e.g. the endpoint has no key: nothing was asked
    return report;
  }

  for (let index = o.start ?? 0; index < (o.start ?? 0) + o.count; index++) {
    if (o.signal?.aborted) {
      report.stopped = 'cancelled';
      break;
    }
    const taskId = llmTaskId(slot, o.seed, index);
    const rounds: LineageRound[] = [];
    const provenance = {
      generator: 'llm' as const,
      endpoint: client.endpoint.name,
      model: client.endpoint.model,
      seed: o.seed,
      index,
    };
    const normalise = (v: Record<string, unknown>) => normaliseCandidate(v, slot, taskId, provenance);

    /** One request, retried once when its answer is not JSON or it failed transiently. */
    const ask = async (messages: ChatMessage[], kind: 'generate' | 'repair'): Promise<Asked> => {
      let msgs = messages;
      let last: Asked = { ok: false, kind: 'request_failed', reason: 'no request was made' };
      for (let attempt = 0; attempt < 2; attempt++) {
        if (attempt === 1) counts.retries++;
        counts.requests++;
        const base = {
          round: rounds.length + 1,
          kind: attempt ? ('retry' as const) : kind,
          prompt: msgs,
          verdicts: null,
          diff: '',
        };
        const stamp = now().toISOString();
        try {
          const r = await client.chat({
            messages: msgs,
            jsonMode: client.capabilities.jsonMode === true,
            seed: (o.seed * 1009 + index * 31 + rounds.length) % 2 ** 31,
            ...(o.signal ? { signal: o.signal } : {}),
          });
          counts.prompt_tokens += r.usage?.prompt_tokens ?? 0;
          counts.completion_tokens += r.usage?.completion_tokens ?? 0;
          const text = r.message.content ?? '';
          const parsed = parseAnswer(text);
          const round: LineageRound = {
            ...base,
            answer: text,
            error: parsed.ok ? null : parsed.reason,
            endpoint: r.endpoint,
            model: r.model,
            prompt_tokens: r.usage?.prompt_tokens ?? null,
            completion_tokens: r.usage?.completion_tokens ?? null,
            latency_ms: r.latencyMs,
            attempts: r.attempts.length,
            created_at: stamp,
          };
          rounds.push(round);
          if (parsed.ok) return { ok: true, value: parsed.value, answer: text, messages: msgs, round };
          counts.not_json++;
          last = { ok: false, kind: 'not_json', reason: parsed.reason };
          msgs = notJsonMessages(messages, text, parsed.reason);
        } catch (err) {
          const me =
            err instanceof ModelError ? err : new ModelError('bad_response', client.endpoint, (err as Error).message);
          rounds.push({
            ...base,
            answer: null,
            error: me.message,
            endpoint: client.endpoint.name,
            model: client.endpoint.model,
            prompt_tokens: null,
            completion_tokens: null,
            latency_ms: me.attempts.reduce((n, a) => n + a.latency_ms + a.waited_ms, 0),
            attempts: me.attempts.length,
            created_at: stamp,
          });
          if (me.kind === 'aborted') return { ok: false, kind: 'aborted', reason: 'cancelled' };
          if (FATAL.has(me.kind)) return { ok: false, kind: 'endpoint_error', reason: me.message };
          if (me.kind === 'timeout') counts.timeouts++;
          else if (me.kind === 'bad_response') counts.not_json++;
          else counts.request_errors++;
          last = {
            ok: false,
            kind: me.kind === 'timeout' ? 'timeout' : me.kind === 'bad_response' ? 'not_json' : 'request_failed',
            reason: me.message,
          };
          msgs = messages; // a failed request is sent again as it was
        }
      }
      return last;
    };

    const first = await ask(generateMessages(slot, o.seed, index), 'generate');
    let outcome: LlmOutcome;
    let task: TaskSpec | null = null;
    if (!first.ok) {
      if (first.kind === 'aborted') {
        report.stopped = 'cancelled';
        break;
      }
      outcome = { index, taskId, status: 'discarded', reasonKind: first.kind, reason: first.reason, rounds };
      if (first.kind === 'endpoint_error') report.stopped = first.reason;
    } else {
      let repairFailure: Extract<Asked, { ok: false }> | undefined;
      let repairRound: LineageRound | undefined;
      const result = await validateAndRepair(
        normalise(first.value),
        async (failed) => {
          const r = await ask(repairMessages(first.messages, first.answer, failed), 'repair');
          if (!r.ok) {
            repairFailure = r;
            return undefined;
          }
          repairRound = r.round;
          return normalise(r.value);
        },
        // The slot is what the candidate is counted under: a task off its slot fails slot_conformance.
        { now, slot },
      );
      const [v1, v2] = result.rounds;
      first.round.verdicts = v1!.verdicts;
      if (v1!.verdicts[0]?.status === 'fail') counts.not_task_spec++;
      if (repairRound && v2) Object.assign(repairRound, { verdicts: v2.verdicts, diff: v2.diff });
      if (repairFailure?.kind === 'aborted') {
        report.stopped = 'cancelled';
        break;
      }
      if (result.accepted) {
        task = result.accepted;
        outcome = { index, taskId, status: v2 ? 'repaired' : 'valid', reasonKind: null, reason: null, rounds };
      } else if (repairFailure) {
        outcome = {
          index,
          taskId,
          status: 'discarded',
          reasonKind: repairFailure.kind as DiscardReason,
          reason: `the repair request failed: ${repairFailure.reason}`,
          rounds,
        };
        if (repairFailure.kind === 'endpoint_error') report.stopped = repairFailure.reason;
      } else {
        const failed = v2!.verdicts.filter((v) => v.status === 'fail');
        outcome = {
          index,
          taskId,
          status: 'discarded',
          reasonKind: 'invalid_after_repair',
          reason:
            `still invalid after one repair: ` +
            `${failed.map((v) => `${v.validator} (${v.messages[0]?.message ?? ''})`).join('; ')}`,
          rounds,
        };
      }
    }
    counts.candidates++;
    if (outcome.status === 'valid') counts.valid_first++;
    else if (outcome.status === 'repaired') counts.repaired++;
    else counts.discarded++;
    if (task) report.tasks.push(task);
    report.outcomes.push(outcome);
    o.onOutcome?.(outcome, task);
    if (report.stopped) break;
  }
  return report;
}
