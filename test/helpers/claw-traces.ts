import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Dispatch, Message, Trajectory } from '../../src/shared/contract/entities/trajectory';
import { gradingView } from '../../src/shared/contract/entities/trajectory';
import { pyIsoTimestamp } from '../../src/main/core/services/define';
import { PyFloat } from '../../src/main/core/py/pyjson';
import { readClawTask } from '../../src/main/core/tasks/claw-eval/read-task';
import { locateTasks } from '../../src/main/core/tasks/claw-eval/task-files';
import { dumpsPydantic } from '../../src/main/core/traces/pydantic-json';
import { CLAW_ROOT, readGolden } from './goldens';

/** The final answer of a synthesised run (test/traces/fixtures/make-pydantic-traces.py uses the same). */
export const DEFAULT_FINAL = 'All requested steps are done; see the tool results above for details.';

/** A uuid-shaped trace id derived from the task id, so a synthesised trace is the same every time. */
export function traceIdOf(taskId: string): string {
  const h = createHash('sha256').update(taskId).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export type SynthOptions = {
  /** The assistant's last message. */
  finalText?: string;
  /** Keep only the recorded calls this accepts (by tool name). */
  keep?: (tool: string) => boolean;
};

/**
 * A realistic Claw-Eval run of a corpus task as a Trajectory, built from the recorded conformance
 * goldens: the task.yaml prompt, one assistant message per recorded call (a tool_use block; the first
 * also has text and reasoning), its tool_dispatch with the recorded status and body, a user message
 * with the recorded tool-result text and is_error, then a final answer, one audit snapshot per
 * service (the recorded audits), trace_end and a grading_result. Event i is stamped instant + 1.5 s·i.
 * make-pydantic-traces.py writes the same run with pydantic; the two must be byte-identical.
 */
export function synthTrajectory(taskId: string, o: SynthOptions = {}): Trajectory {
  const g = readGolden(taskId);
  const prompt = readClawTask(locateTasks(path.join(CLAW_ROOT, 'tasks', taskId))[0]!).spec.prompt.text;
  const base = new Date(g.meta.instant_iso).getTime();
  let seq = 0;
  const tick = () => {
    const s = seq++;
    return { seq: s, timestamp: pyIsoTimestamp(new Date(base + 1500 * s)) };
  };
  const msgMeta = (usage?: { prompt_tokens: number; completion_tokens: number }) => {
    const { seq: s, timestamp } = tick();
    return { timestamp, trace: { seq: s }, ...(usage ? { usage } : {}) };
  };
  const start = tick();
  const messages: Message[] = [{ role: 'user', content: prompt, origin: 'task', meta: msgMeta() }];
  const dispatches: Dispatch[] = [];
  const pairs = g.calls.map((c, i) => ({ c, e: g.expected[i]! })).filter(({ c }) => !o.keep || o.keep(c.tool));
  let tin = 0;
  let tout = 0;
  let toolMs = 0;
  const usageOf = (k: number) => {
    const u = { prompt_tokens: 1200 + 150 * k, completion_tokens: 40 + k };
    tin += u.prompt_tokens;
    tout += u.completion_tokens;
    return u;
  };
  pairs.forEach(({ c, e }, k) => {
    const id = `toolu_${String(k).padStart(3, '0')}`;
    const args = c.args as Record<string, unknown>;
    messages.push({
      role: 'assistant',
      content: k === 0 ? "I'll start by looking at the data." : null,
      reasoning: k === 0 ? 'Read before writing.' : null,
      tool_calls: [
        {
          id,
          type: 'function',
          function: { name: c.tool, arguments: dumpsPydantic(c.args) },
          parsed_arguments: args,
          arguments_origin: 'serialized',
          requestor: 'assistant',
        },
      ],
      meta: msgMeta(usageOf(k)),
    });
    const latency = (k % 4) * 0.75;
    toolMs += latency;
    dispatches.push({
      call_id: id,
      tool: c.tool,
      endpoint: g.meta.tools[c.tool]?.url ?? '',
      args,
      status: e.status,
      body: e.body,
      latency_ms: latency,
      meta: tick(),
    });
    messages.push({
      role: 'tool',
      tool_call_id: id,
      name: c.tool,
      content: e.text,
      is_error: e.is_error,
      meta: msgMeta(),
    });
  });
  const n = pairs.length;
  messages.push({
    role: 'assistant',
    content: o.finalText ?? DEFAULT_FINAL,
    reasoning: null,
    tool_calls: [],
    meta: msgMeta(usageOf(n)),
  });
  const audits = g.meta.services.map((s) => ({
    service: s.name,
    url: `http://localhost:${s.declared_port}/${s.name}/audit`,
    data: g.audit[s.name] as Record<string, unknown>,
    meta: tick(),
  }));
  const modelS = 1.25 * (n + 1);
  const toolS = toolMs / 1000;
  const scores0 = {
    completion: 0,
    robustness: 0,
    communication: 0,
    safety: 1,
    efficiency_turns: 0,
    efficiency_tokens: 0,
    efficiency_wall_time_s: 0,
  };
  const end = {
    total_turns: n + 1,
    model_input_tokens: tin,
    model_output_tokens: tout,
    input_tokens: tin,
    output_tokens: tout,
    total_tokens: tin + tout,
    model_time_s: modelS,
    tool_time_s: toolS,
    other_time_s: 0.5,
    wall_time_s: modelS + toolS + 0.5,
    scores: scores0,
    task_score: 0,
    passed: false,
    failure_modes: [],
    user_agent_rounds: 0,
    user_agent_max_rounds: 0,
    user_agent_done: false,
    meta: tick(),
  };
  // The judge call's time takes a clock tick of its own (as in the Python script), not an event.
  const judged = tick();
  const gradings = [
    {
      task_id: taskId,
      scores: { ...scores0, completion: 0.85, robustness: 1 },
      task_score: 0.88,
      passed: true,
      failure_modes: [],
      judge_calls: [
        {
          method: 'evaluate',
          rubric_preview: 'Did the agent finish the task?',
          score: new PyFloat(0.7),
          reasoning: 'mostly',
          timestamp: judged.timestamp,
        },
      ],
      user_agent_meta: {},
      meta: { seq: judged.seq, timestamp: tick().timestamp },
    },
  ];
  return {
    trajectory_id: `claw-eval/${taskId}/${traceIdOf(taskId)}`,
    task_id: taskId,
    model: 'claude-sonnet-4-5',
    source: { format: 'claw-eval-trace', file: null },
    trace: { trace_id: traceIdOf(taskId), persona: 'default', meta: start },
    tools: [],
    messages,
    dispatches,
    audits,
    media: [],
    compactions: [],
    end,
    gradings,
    ...gradingView(gradings),
    termination: null,
    metadata: {},
  };
}
