import type { RejectionReason } from '../../../../shared/contract/entities/export';
import type { Message, Trajectory } from '../../../../shared/contract/entities/trajectory';
import { isObject, type PyObject, pyEquals, type PyValue } from '../../services/pyjson';
import { codePoints, truncateCodePoints } from './text';
import { normaliseTools, type ToolSchema } from './tool-schemas';

/**
 * The agent view of a trajectory (formats.md §1.4): what the agent model saw, trimmed to end at the
 * last assistant message that says something, with the canonical validator's rules (§1.7) checked.
 * Every dialect renders from this; none reads the Trajectory itself.
 */
export type ViewCall = { id: string; name: string; arguments: string; parsed: PyObject };
export type ViewUser = { role: 'user'; content: string };
export type ViewAssistant = {
  role: 'assistant';
  content: string | null;
  reasoning: string | null;
  calls: ViewCall[];
  /** meta.train_weight (OpenAI `weight`, §2.3): null when the source set none. */
  weight: 0 | 1 | null;
};
export type ViewTool = { role: 'tool'; callId: string; name: string; content: string };
export type ViewMessage = ViewUser | ViewAssistant | ViewTool;

export type ViewProblem = { reason: RejectionReason; detail: string };

export type AgentView = {
  system: string | null;
  messages: ViewMessage[];
  tools: ToolSchema[];
  /**
   * Counted as §6.2 says: messages with the system one, calls one by one, code points of contents and raw arguments.
   */
  counts: { messages: number; toolCalls: number; chars: number; maxParallel: number };
  /** A user message with text, followed later by an assistant message with text or a call (§6.2). */
  usable: boolean;
  /** The source's own parallel_tool_calls (an OpenAI-FT import keeps it in metadata, §2.3 quirk 4). */
  parallelToolCalls: boolean | null;
  /** The first problem that keeps the record out of every dialect (null: none). */
  problem: ViewProblem | null;
};

export type ViewOptions = {
  /** Shorten each tool observation to this many code points (the converter's rule); null keeps them whole. */
  observationChars: number | null;
  inlineDefs: boolean;
  requireToolSchemas: boolean;
};

const hasText = (s: string | null | undefined): s is string => typeof s === 'string' && s.trim() !== '';

/** Last index of an assistant message with text: everything after it is trimmed, its calls dropped (§1.4, §3.1). */
function lastSpeakingAssistant(ms: readonly Message[]): number {
  for (let i = ms.length - 1; i >= 0; i--) {
    const m = ms[i]!;
    if (m.role === 'assistant' && hasText(m.content)) return i;
  }
  return -1;
}

export function projectAgentView(t: Trajectory, o: ViewOptions): AgentView {
  let problem: ViewProblem | null = null;
  const fail = (reason: RejectionReason, detail: string) => {
    problem ??= { reason, detail };
  };
  const src = t.messages;
  let system: string | null = null;
  src.forEach((m, i) => {
    if (m.role !== 'system') return;
    if (i === 0) system = m.content;
    else fail('malformed_trajectory', `system message at index ${i} (only index 0 is allowed)`);
  });

  // User-side calls (τ² dual control) and their results are environment events, not agent turns (§1.4).
  const userCallIds = new Set<string>();
  for (const m of src)
    if (m.role === 'assistant') for (const c of m.tool_calls) if (c.requestor === 'user') userCallIds.add(c.id);

  const end = lastSpeakingAssistant(src);
  const messages: ViewMessage[] = [];
  const seenIds = new Set<string>();
  let pending: ViewCall[] = [];
  let toolCalls = 0;
  let maxParallel = 0;
  let chars = system === null ? 0 : codePoints(system);
  const called = new Set<string>();
  for (let i = 0; i <= end; i++) {
    const m = src[i]!;
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      if (userCallIds.has(m.tool_call_id)) continue;
      const want = pending.shift();
      if (!want) {
        fail('malformed_trajectory', `tool message at index ${i} (${m.tool_call_id}) answers no pending call`);
        continue;
      }
      if (want.id !== m.tool_call_id)
        fail('malformed_trajectory', `tool message at index ${i} answers ${m.tool_call_id}; call ${want.id} is next`);
      if (m.name !== want.name)
        fail('malformed_trajectory', `tool message at index ${i} is named ${m.name}; its call is ${want.name}`);
      const content = o.observationChars === null ? m.content : truncateCodePoints(m.content, o.observationChars);
      chars += codePoints(content);
      messages.push({ role: 'tool', callId: want.id, name: want.name, content });
      continue;
    }
    if (pending.length)
      fail('malformed_trajectory', `call ${pending[0]!.id} has no result before the message at index ${i}`);
    pending = [];
    if (m.role === 'user') {
      const content = m.content ?? '';
      chars += codePoints(content);
      messages.push({ role: 'user', content });
      continue;
    }
    // The last speaking assistant keeps its text; its calls have no results in the view and are dropped.
    const calls: ViewCall[] = [];
    for (const c of i === end ? [] : m.tool_calls) {
      if (c.requestor === 'user') continue;
      const { name, arguments: raw } = c.function;
      if (seenIds.has(c.id)) fail('malformed_trajectory', `call id ${c.id} is used twice`);
      seenIds.add(c.id);
      called.add(name);
      chars += codePoints(raw);
      if (c.parsed_arguments === null) {
        fail('unparseable_arguments', `call ${c.id} (${name}): arguments do not parse to an object`);
        continue;
      }
      if (!argumentsAgree(raw, c.parsed_arguments as PyObject))
        fail('malformed_trajectory', `call ${c.id} (${name}): parsed_arguments disagrees with arguments`);
      calls.push({ id: c.id, name, arguments: raw, parsed: c.parsed_arguments as PyObject });
    }
    // An assistant turn with neither text nor calls (reasoning only, or only user-side calls) trains nothing.
    if (!calls.length && !hasText(m.content)) continue;
    toolCalls += calls.length;
    if (calls.length > maxParallel) maxParallel = calls.length;
    chars += codePoints(m.content ?? '');
    const w = (m.meta as { train_weight?: unknown } | undefined)?.train_weight;
    messages.push({
      role: 'assistant',
      content: m.content,
      reasoning: m.reasoning,
      calls,
      weight: w === 0 || w === 1 ? w : null,
    });
    pending = [...calls];
  }

  const tools = normaliseTools(t.tools, o.inlineDefs);
  let toolList: ToolSchema[] = [];
  if (!tools.ok) fail('malformed_trajectory', tools.detail);
  else {
    toolList = tools.tools;
    if (o.requireToolSchemas && called.size) {
      if (!toolList.length) fail('missing_tool_schemas', `calls ${[...called].join(', ')} but carries no tool schemas`);
      const unknown = [...called].filter((n) => !tools.names.has(n));
      if (unknown.length) fail('unknown_tool', `calls ${unknown.join(', ')}, not in its tool schemas`);
    }
  }

  return {
    system,
    messages,
    tools: toolList,
    counts: { messages: messages.length + (system === null ? 0 : 1), toolCalls, chars, maxParallel },
    usable: isUsable(messages),
    parallelToolCalls: typeof t.metadata.parallel_tool_calls === 'boolean' ? t.metadata.parallel_tool_calls : null,
    problem,
  };
}

function isUsable(ms: readonly ViewMessage[]): boolean {
  let sawUser = false;
  for (const m of ms) {
    if (m.role === 'user' && hasText(m.content)) sawUser = true;
    else if (sawUser && m.role === 'assistant' && (hasText(m.content) || m.calls.length)) return true;
  }
  return false;
}

/** §1.2's invariant: parsed_arguments deep-equals JSON.parse(arguments) (1 and 1.0 are equal, as in Python). */
function argumentsAgree(raw: string, parsed: PyObject): boolean {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return false;
  }
  return isObject(v as PyValue) && pyEquals(v as PyValue, parsed);
}
