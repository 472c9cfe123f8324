import { readMessages, readOpenAi } from './openai';
import type { FormatContext, Normalized } from './normalized';
import { arr, isObj, obj, RecordError, str, type Obj } from './record-error';
import { parseJsonString } from './record-json';

/** LLaMA-Factory's default tags (formats.md §3.3); `user`/`assistant`/`tool` are accepted as synonyms. */
const ROLES: Record<string, 'user' | 'assistant' | 'function_call' | 'observation' | 'system'> = {
  human: 'user',
  user: 'user',
  gpt: 'assistant',
  assistant: 'assistant',
  function_call: 'function_call',
  observation: 'observation',
  tool: 'observation',
  system: 'system',
};

/** LLaMA-Factory's OpenAI converter joins parallel results with this (formats.md §3.3 rule 6). */
const RESULT_SEPARATOR = '\n</tool_response>\n<tool_response>\n';

/** A function_call turn's value: {"name", "arguments"} or a list of them (parallel calls). */
function callsOf(value: string, f: string): Obj[] {
  let v: unknown;
  try {
    v = parseJsonString(value, `${f}.value`);
  } catch (err) {
    if (err instanceof RecordError) throw err;
    throw new RecordError(
      `${f}.value`,
      `a function_call value must be JSON {"name", "arguments"}: ${(err as Error).message}`,
    );
  }
  const list = Array.isArray(v) ? v : [v];
  return list.map((c, i) => {
    const call = obj(c, `${f}.value${Array.isArray(v) ? `[${i}]` : ''}`);
    const args = call.arguments;
    return {
      type: 'function',
      function: {
        name: str(call.name, `${f}.value.name`),
        arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
      },
    };
  });
}

/**
 * A LLaMA-Factory sharegpt record {conversations: [{from, value}], system?, tools?} (formats.md
 * §3.3), plus the reward fields of a messages row. Mapped onto OpenAI messages: function_call turns
 * become assistant tool calls (ids synthesised), an observation answers the calls before it (a
 * parallel batch's results split on LLaMA-Factory's separator when the counts agree).
 */
export function readShareGpt(value: unknown, ctx: FormatContext): Normalized {
  const r = obj(value, '');
  const turns = arr(r.conversations, 'conversations');
  const messages: Obj[] = [];
  if (r.system !== undefined && r.system !== null) messages.push({ role: 'system', content: str(r.system, 'system') });
  let openCalls = 0;
  turns.forEach((raw, i) => {
    const f = `conversations[${i}]`;
    const t = obj(raw, f);
    const role = ROLES[str(t.from, `${f}.from`)];
    if (!role) throw new RecordError(`${f}.from`, `unknown role tag ${JSON.stringify(t.from)}`);
    const text = str(t.value, `${f}.value`);
    if (role === 'function_call') {
      const calls = callsOf(text, f);
      openCalls = calls.length;
      messages.push({ role: 'assistant', content: null, tool_calls: calls });
    } else if (role === 'observation') {
      const parts = openCalls > 1 ? text.split(RESULT_SEPARATOR) : [text];
      const results = parts.length === openCalls ? parts : [text];
      for (const content of results) messages.push({ role: 'tool', content });
      openCalls = 0;
    } else messages.push({ role, content: text });
  });
  const tools = typeof r.tools === 'string' ? parseTools(r.tools) : r.tools;
  const conv = readMessages(messages, 'conversations');
  const rest: Obj = { ...r, tools };
  delete rest.conversations;
  delete rest.system;
  return readOpenAi({ ...rest, messages: [] }, ctx, conv);
}

function parseTools(s: string): unknown {
  if (!s.trim()) return [];
  try {
    const v: unknown = parseJsonString(s, 'tools');
    if (Array.isArray(v) || isObj(v)) return Array.isArray(v) ? v : [v];
  } catch (err) {
    if (err instanceof RecordError) throw err;
    // not JSON: reported below
  }
  throw new RecordError('tools', 'must be a JSON string of a list of tool schemas');
}
