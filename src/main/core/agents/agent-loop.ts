import { randomUUID } from 'node:crypto';
import type { GradeResult } from '../../../shared/contract/entities/checks';
import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import {
  gradingView,
  type Dispatch,
  type Message,
  type Trajectory,
} from '../../../shared/contract/entities/trajectory';
import { grade } from '../grading/grade';
import { pyIsoTimestamp } from '../services/define';
import type { EnvironmentSpec } from '../services/environment';
import { environmentForSpec, taskClock, type StoredFixture } from '../tasks/task-spec-of';
import { runRecordOf } from '../grading/run-record';
import type { Agent, AgentReply, UserSimulator } from './agent-types';
import type { ChatMessage } from './chat-types';
import {
  auditSnapshots,
  canonicalCall,
  gradingOf,
  parseArguments,
  runEnd,
  TERMINATION,
  type StopReason,
  type Tally,
} from './episode-record';
import { buildSystemPrompt, dumpsAscii, toolSpecs } from './system-prompt';

export type EpisodeInput = {
  spec: TaskSpec;
  fixtures: StoredFixture[];
  agent: Agent;
  /** Consulted on tool-free turns when the task has user_agent.enabled; without one the task runs single-turn. */
  user?: UserSimulator;
  trial?: number;
  /** The services' clock (default: the task's, taskClock). */
  clock?: Date;
  mode?: EnvironmentSpec['mode'];
  /** Cancels at once, even mid model call: the episode then throws and yields nothing. */
  signal?: AbortSignal;
  trajectoryId?: string;
  /** Wall clock, ms (timings, the timeout, timestamps); tests pin it. */
  now?: () => number;
};

/**
 * The system prompt and tool list of a spec, built once per spec object (a run replays each task k
 * times; building the prompt dumps every tool schema).
 */
const prompts = new WeakMap<TaskSpec, { plain?: string; withUser?: string; tools: ReturnType<typeof toolSpecs> }>();
function promptOf(spec: TaskSpec, withUser: boolean) {
  let p = prompts.get(spec);
  if (!p) prompts.set(spec, (p = { tools: toolSpecs(spec) }));
  const key = withUser ? 'withUser' : 'plain';
  p[key] ??= buildSystemPrompt(spec, withUser);
  return { system: p[key], tools: p.tools };
}

/** The signal of an episode that nothing can cancel (no caller signal, no party that waits). */
const NEVER = new AbortController().signal;

/** Timestamps of one instant are made once (an episode of the reference agent stamps many messages per ms). */
function stamper(now: () => number) {
  let last = Number.NaN;
  let text = '';
  return () => {
    const t = now();
    if (t !== last) [last, text] = [t, pyIsoTimestamp(new Date(t))];
    return text;
  };
}

/** What is dispatched: the parsed object, or {} for arguments that are not one (Claw-Eval's json.loads fallback). */
const argsOf = (p: ReturnType<typeof parseArguments>) => (p.ok ? p.value : {});

export type Episode = {
  trajectory: Trajectory;
  grade: GradeResult;
  stop: StopReason;
  /** Why the episode failed (a model error after retries); null when it did not. */
  error: string | null;
};

/**
 * One trajectory with Claw-Eval's loop semantics (runner/loop.py; reference/claw-eval.md §7.5,
 * §10): a fresh environment of the task on its clock; [system, user prompt]; each turn asks the
 * agent, and a turn with tool calls is answered by dispatching each call in order and appending
 * one tool result per call; a tool-free turn asks the simulated user (multi-turn tasks) or ends
 * the episode; `[DONE]` ends it, and so do max_rounds (the next tool-free turn), max_turns and
 * timeout_seconds (checked before each model call, and cutting a call short). A model error after
 * the client's retries ends it as an infrastructure error. Graded with the shared grader.
 */
export async function runEpisode(input: EpisodeInput): Promise<Episode> {
  const { spec, agent, user } = input;
  const now = input.now ?? Date.now;
  const stamp = stamper(now);
  const clock = input.clock ? () => input.clock! : taskClock(spec);
  const env = environmentForSpec(spec, input.fixtures, clock, { mode: input.mode ?? 'parity' });
  const session = agent.begin(spec, input.trial ?? 0);
  const ua = spec.user_agent?.enabled && user ? spec.user_agent : undefined;
  const { system, tools } = promptOf(spec, !!ua);
  const start = now();
  const deadlineAt = start + spec.environment.timeout_seconds * 1000;
  const t: Tally = {
    turns: 0,
    inputTokens: 0,
    outputTokens: 0,
    modelMs: 0,
    toolMs: 0,
    wallMs: 0,
    rounds: 0,
    maxRounds: ua ? ua.max_rounds : 0,
    userDone: false,
    failure: null,
  };
  const messages: Message[] = [
    { role: 'system', content: system },
    { role: 'user', content: spec.prompt.text, origin: 'task', meta: { timestamp: stamp() } },
  ];
  // The conversation as the model is sent it. The reference agent replays a plan and reads none of
  // it: not written for it (re-dumping every call's arguments was a tenth of its episode).
  const wire: ChatMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: spec.prompt.text },
  ];
  const keepWire = agent.kind !== 'reference';
  const dispatches: Dispatch[] = [];
  const usedIds = new Set<string>();
  const meta: Record<string, unknown> = {};
  let modelErrors = 0;
  let retries = 0;
  let stop: StopReason = 'max_turns';

  // Only parties that wait on the network need the deadline cut their calls short.
  const waits = agent.kind === 'model' || user?.kind === 'model';
  const deadline = waits ? new AbortController() : null;
  const timer = deadline ? setTimeout(() => deadline.abort(new Error('timeout')), deadlineAt - start) : undefined;
  const signal = deadline
    ? input.signal
      ? AbortSignal.any([input.signal, deadline.signal])
      : deadline.signal
    : (input.signal ?? NEVER);
  /** What a failed await means: a cancel (rethrown), the task's timeout, or an error of that party. */
  const failure = (err: unknown): 'timeout' | string => {
    if (input.signal?.aborted) throw input.signal.reason instanceof Error ? input.signal.reason : err;
    if (deadline?.signal.aborted) return 'timeout';
    return `${(err as Error).name ?? 'Error'}: ${(err as Error).message ?? String(err)}`;
  };

  try {
    while (t.turns < spec.environment.max_turns) {
      if (now() - start > spec.environment.timeout_seconds * 1000) {
        stop = 'timeout';
        break;
      }
      let reply: AgentReply;
      const t0 = now();
      try {
        reply = await session.turn({ spec, wire, tools, turn: t.turns, signal });
      } catch (err) {
        const f = failure(err);
        t.modelMs += now() - t0;
        if (f === 'timeout') stop = 'timeout';
        else [stop, t.failure] = ['error', f];
        break;
      }
      t.modelMs += reply.latencyMs;
      t.turns++;
      t.inputTokens += reply.usage?.prompt_tokens ?? 0;
      t.outputTokens += reply.usage?.completion_tokens ?? 0;
      if (reply.attempts) retries += reply.attempts.length - 1;
      if (reply.model && reply.model !== agent.model && agent.model) meta.served_model = reply.model;

      // Call ids are unique within a trajectory (formats.md §1.2): a reused one is renamed, the original kept.
      const sourceIds: Record<string, string> = {};
      const calls = reply.toolCalls.map((c) => {
        let id = c.id || `call_${t.turns}`;
        for (let n = 2; usedIds.has(id); n++) id = `${c.id}_${n}`;
        usedIds.add(id);
        if (id !== c.id) sourceIds[id] = c.id;
        return { ...c, id };
      });
      const parsed = calls.map((c) => parseArguments(c.arguments));
      const errors: { call_id: string; tool: string; kind: string; message: string }[] = [];
      parsed.forEach((p, i) => {
        if (!p.ok)
          errors.push({ call_id: calls[i]!.id, tool: calls[i]!.name, kind: 'invalid_arguments', message: p.error });
      });
      const assistantMeta: Record<string, unknown> = { timestamp: stamp() };
      if (reply.usage)
        assistantMeta.usage = {
          prompt_tokens: reply.usage.prompt_tokens,
          completion_tokens: reply.usage.completion_tokens,
        };
      if (reply.attempts) assistantMeta.attempts = reply.attempts;
      if (Object.keys(sourceIds).length) assistantMeta.source_ids = sourceIds;
      const assistant: Message = {
        role: 'assistant',
        content: reply.content || null,
        reasoning: reply.reasoning,
        tool_calls: calls.map((c, i) => canonicalCall(c, parsed[i]!)),
        meta: assistantMeta,
      };
      messages.push(assistant);
      // Claw-Eval sends the arguments back as json.dumps(tool_use.input): a broken string goes back as {}.
      if (keepWire)
        wire.push({
          role: 'assistant',
          content: assistant.content,
          tool_calls: calls.map((c, i) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: dumpsAscii(argsOf(parsed[i]!)) },
          })),
        });

      if (!calls.length) {
        if (ua && user && t.rounds < ua.max_rounds) {
          const u0 = now();
          let r: Awaited<ReturnType<UserSimulator['reply']>>;
          try {
            r = await user.reply({ spec, messages, signal });
          } catch (err) {
            if (failure(err) === 'timeout') {
              stop = 'timeout';
              break;
            }
            r = { text: null, raw: null, usage: null, latencyMs: now() - u0, error: (err as Error).message };
          }
          meta.user_simulator_tokens =
            ((meta.user_simulator_tokens as number | undefined) ?? 0) +
            (r.usage ? r.usage.prompt_tokens + r.usage.completion_tokens : 0);
          if (r.error) meta.user_simulator_error = r.error;
          if (r.text === null) {
            [t.userDone, stop] = [true, 'user_done'];
            if (r.raw !== null) meta.user_simulator_final = r.raw;
            break;
          }
          t.rounds++;
          const content = `[user_agent]\n${r.text}`;
          messages.push({
            role: 'user',
            content,
            origin: 'simulated_user',
            meta: { timestamp: stamp(), simulator: user.label },
          });
          if (keepWire) wire.push({ role: 'user', content });
          continue;
        }
        stop = ua && t.rounds >= ua.max_rounds ? 'max_rounds' : 'no_tool_calls';
        break;
      }

      calls.forEach((c, i) => {
        const args = argsOf(parsed[i]!);
        const d = env.call(c.name, args);
        t.toolMs += d.latencyMs;
        if (d.endpointUrl === '')
          errors.push({ call_id: c.id, tool: c.name, kind: 'unknown_tool', message: `unknown tool '${c.name}'` });
        const ts = stamp();
        dispatches.push({
          call_id: c.id,
          tool: c.name,
          endpoint: d.endpointUrl,
          args,
          status: d.status,
          body: d.body as unknown,
          latency_ms: d.latencyMs,
          meta: { timestamp: ts },
        });
        messages.push({
          role: 'tool',
          tool_call_id: c.id,
          name: c.name,
          content: d.text,
          is_error: d.isError,
          meta: { timestamp: ts },
        });
        if (keepWire) wire.push({ role: 'tool', tool_call_id: c.id, content: d.text });
      });
      if (errors.length) {
        assistantMeta.model_errors = errors;
        modelErrors += errors.length;
      }
    }
  } finally {
    clearTimeout(timer);
  }

  t.wallMs = now() - start;
  const ts = stamp();
  const audits = auditSnapshots(env, ts);
  const end = runEnd(t, ts);
  const base = { dispatches, messages, audits };
  const g = grade(spec, runRecordOf(base));
  const grading = gradingOf(spec.task_id, g, t, ts);
  const session_ = session.info();
  const trajectory: Trajectory = {
    trajectory_id: input.trajectoryId ?? randomUUID(),
    task_id: spec.task_id,
    model: agent.model,
    source: { format: 'studio', file: null },
    trace: { trace_id: randomUUID(), persona: 'default' },
    tools,
    messages,
    dispatches,
    audits,
    media: [],
    compactions: [],
    end,
    gradings: [grading],
    ...gradingView([grading]),
    ...(stop === 'error' ? { valid: false, invalid_reason: `infra_error: ${t.failure}` } : {}),
    termination: TERMINATION[stop],
    metadata: {
      agent: session_,
      user_simulator: ua && user ? { kind: user.kind, label: user.label } : null,
      stop_reason: stop,
      trial: input.trial ?? 0,
      clock: clock().toISOString(),
      mode: input.mode ?? 'parity',
      model_errors: modelErrors,
      retries,
      ...meta,
    },
  };
  return { trajectory, grade: g, stop, error: t.failure };
}
