import type { Message, ToolCall, Trajectory } from '../../src/shared/contract/entities/trajectory';
import type { SftRecord } from '../../src/main/core/export/sft';

/**
 * Hand-built canonical trajectories with exact shapes, for the accounting tests (the corpora cannot give known counts
 * per reason).
 */
export const LOOKUP_TOOL = {
  type: 'function',
  function: {
    name: 'lookup',
    description: 'Look a record up by id.',
    parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  },
};

export function trajectory(id: string, messages: Message[], extra: Partial<Trajectory> = {}): Trajectory {
  return {
    trajectory_id: id,
    task_id: id,
    model: 'test',
    source: { format: 'studio', file: null },
    trace: null,
    tools: [LOOKUP_TOOL],
    messages,
    dispatches: [],
    audits: [],
    media: [],
    compactions: [],
    end: null,
    gradings: [],
    scores: null,
    reward: null,
    termination: null,
    valid: true,
    invalid_reason: null,
    metadata: {},
    ...extra,
  };
}

export const sys = (content: string): Message => ({ role: 'system', content });
export const user = (content: string | null): Message => ({ role: 'user', content, origin: 'task', control: null });
export const say = (content: string, reasoning: string | null = null): Message => ({
  role: 'assistant',
  content,
  reasoning,
  tool_calls: [],
});

export function callOf(id: string, args: Record<string, unknown>, name = 'lookup'): ToolCall {
  return {
    id,
    type: 'function',
    function: { name, arguments: JSON.stringify(args) },
    parsed_arguments: args,
    arguments_origin: 'serialized',
    requestor: 'assistant',
  };
}

/** One assistant message making `calls` (parallel when more than one), then their results in order. */
export function batch(
  prefix: string,
  calls: number,
  result = (i: number) => `{"id": "r${i}", "ok": true}`,
  text: string | null = null,
): Message[] {
  const cs = Array.from({ length: calls }, (_, i) => callOf(`${prefix}_${i}`, { id: `r${i}` }));
  return [
    { role: 'assistant', content: text, reasoning: null, tool_calls: cs },
    ...cs.map(
      (c, i): Message => ({
        role: 'tool',
        tool_call_id: c.id,
        name: c.function.name,
        content: result(i),
        is_error: false,
      }),
    ),
  ];
}

/** `batches` assistant turns spreading `calls` calls, between a user request and a final answer. */
export function agentRun(id: string, batches: number, calls: number, observation?: (i: number) => string): Message[] {
  const out: Message[] = [user(`Please handle request ${id}.`)];
  let left = calls;
  for (let b = 0; b < batches; b++) {
    const n = b === batches - 1 ? left : Math.min(left, Math.max(1, Math.floor(calls / batches)));
    left -= n;
    if (n > 0) out.push(...batch(`${id.replace(/\W/g, '_')}_b${b}`, n, observation));
  }
  out.push(say(`Request ${id} is handled.`));
  return out;
}

export const rec = (t: Trajectory, m: Partial<Omit<SftRecord, 'trajectory'>> = {}): SftRecord => ({
  recordId: t.trajectory_id,
  taskId: t.task_id,
  trial: 0,
  reward: 0.9,
  bucket: 'KEEP',
  pool: 'mixed',
  ...m,
  trajectory: t,
});
