import type { RejectionReason } from '../../../../shared/contract/entities/export';
import type { Message, ToolCall, Trajectory } from '../../../../shared/contract/entities/trajectory';
import { isObject, type PyObject, pyEquals, type PyValue } from '../../py/pyjson';
import { codePoints, truncateCodePoints } from './text';
import { normaliseTools, type SchemaOrigin, schemaOriginOf, type ToolSchema } from './tool-schemas';

/**
 * The agent view of a trajectory (formats.md §1.4): what the agent model saw, ending on its last
 * turn — with that turn's calls and their results — with the canonical validator's rules (§1.7)
 * checked. Every dialect renders from this; none reads the Trajectory itself.
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
/** Something the view leaves out on purpose: a lint warning on the record, so it is counted, never silent. */
export type ViewNote = { code: string; message: string };

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
  /**
   * Tool messages at the end of `messages`: the results of the last turn's calls. Kept whole here; a dialect
   * whose conversations must end on the assistant leaves them out and says so (the calls stay).
   */
  finalResults: number;
  /** The agent calls tools and the trajectory has no schemas (let through only with requireToolSchemas: false). */
  schemasMissing: boolean;
  schemas: SchemaOrigin;
  notes: ViewNote[];
};

export type ViewOptions = {
  /** Shorten each tool observation to this many code points (the converter's rule); null keeps them whole. */
  observationChars: number | null;
  inlineDefs: boolean;
  requireToolSchemas: boolean;
};

const hasText = (s: string | null | undefined): s is string => typeof s === 'string' && s.trim() !== '';

/**
 * User-side calls (τ² dual control): the simulated user's own tool calls on its device, on user
 * messages (and, in older imports, on assistant messages marked requestor "user").
 */
const userSide = (m: Message, c: ToolCall) => m.role === 'user' || c.requestor === 'user';
const agentCalls = (m: Message): ToolCall[] =>
  m.role === 'assistant' ? m.tool_calls.filter((c) => c.requestor !== 'user') : [];

/** The agent's last turn: the last assistant message that says something or calls a tool. */
function lastAgentTurn(ms: readonly Message[]): number {
  for (let i = ms.length - 1; i >= 0; i--) {
    const m = ms[i]!;
    if (m.role === 'assistant' && (hasText(m.content) || agentCalls(m).length)) return i;
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

  // User-side calls and their results are environment events the agent never saw (§1.4): left out, counted.
  const userCallIds = new Set<string>();
  for (const m of src)
    if (m.role === 'assistant' || m.role === 'user')
      for (const c of m.tool_calls ?? []) if (userSide(m, c)) userCallIds.add(c.id);

  // Everything after the agent's last turn and its results is trimmed (the user's STOP, say); nothing the agent did is.
  const end = lastAgentTurn(src);
  const messages: ViewMessage[] = [];
  const seenIds = new Set<string>();
  let pending: ViewCall[] = [];
  let toolCalls = 0;
  let maxParallel = 0;
  let finalResults = 0;
  let chars = system === null ? 0 : codePoints(system);
  const called = new Set<string>();
  for (let i = 0; i < src.length; i++) {
    const m = src[i]!;
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      if (userCallIds.has(m.tool_call_id)) continue;
      if (i > end && !pending.length) break;
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
      if (i > end) finalResults++;
      continue;
    }
    // The last turn's calls may lack results (a run cut short): they stay, as the turn's action (§1.7's exception).
    if (i > end) break;
    if (pending.length)
      fail('malformed_trajectory', `call ${pending[0]!.id} has no result before the message at index ${i}`);
    pending = [];
    if (m.role === 'user') {
      // A user turn that only ran tools on the user's own device says nothing to the agent.
      if (!hasText(m.content) && m.tool_calls?.length) continue;
      const content = m.content ?? '';
      chars += codePoints(content);
      messages.push({ role: 'user', content });
      continue;
    }
    const calls: ViewCall[] = [];
    for (const c of agentCalls(m)) {
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
  const schemasMissing = called.size > 0 && !t.tools.length;
  if (!tools.ok) fail('malformed_trajectory', tools.detail);
  else {
    toolList = tools.tools;
    if (schemasMissing && o.requireToolSchemas)
      fail(
        'missing_tool_schemas',
        `calls ${[...called].join(', ')} but carries no tool schemas: import it with --tools FILE (an OpenAI ` +
          'tools list, or JSON/JSONL whose records carry tools), or export with requireToolSchemas: false to a ' +
          'dialect that renders without them',
      );
    const unknown = toolList.length ? [...called].filter((n) => !tools.names.has(n)) : [];
    if (unknown.length) fail('unknown_tool', `calls ${unknown.join(', ')}, not in its tool schemas`);
  }

  const notes: ViewNote[] = [];
  if (userCallIds.size)
    notes.push({
      code: 'user_tool_calls_excluded',
      message:
        `${userCallIds.size} user-side tool call(s) and their results left out: the user ran them on their own ` +
        "device (τ² dual control) and the agent never saw them; τ²-bench's own SFT data has the user's text only",
    });
  return {
    system,
    messages,
    tools: toolList,
    counts: { messages: messages.length + (system === null ? 0 : 1), toolCalls, chars, maxParallel },
    usable: isUsable(messages),
    parallelToolCalls: typeof t.metadata.parallel_tool_calls === 'boolean' ? t.metadata.parallel_tool_calls : null,
    problem,
    finalResults,
    schemasMissing,
    schemas: schemaOriginOf(t),
    notes,
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
