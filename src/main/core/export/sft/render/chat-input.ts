import type { SftDialect } from '../../../../../shared/contract/entities/export';
import { OBSERVATION_SEPARATOR } from '../dialects/llamafactory.dialect';
import type { ChatInput } from './chat-templates';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A JSON string decoded, anything else as it is (verl and OpenAI keep arguments and parameters as strings). */
function decoded(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/**
 * A written row as the trainer hands it to tokenizer.apply_chat_template: OpenAI messages with object arguments
 * and an OpenAI tools list. TRL rows are that already; OpenAI and verl rows hold JSON strings that their loaders
 * decode first (verl's README step, formats.md §3.4); LLaMA-Factory's sharegpt turns map back to messages (its own
 * templates render the same turns). The row was linted before: shapes are trusted, nothing is validated here.
 */
export function chatInputOf(dialect: SftDialect, row: unknown): ChatInput {
  if (!isObj(row)) return { messages: [], tools: [] };
  if (dialect === 'llamafactory') return fromSharegpt(row);
  const messages = list(row.messages).filter(isObj).map(withObjectArguments);
  return { messages, tools: list(decoded(row.tools)).filter(isObj).map(withObjectParameters) };
}

function withObjectArguments(m: Obj): Obj {
  if (!Array.isArray(m.tool_calls)) {
    // verl's parquet gives absent fields as null: apply_chat_template never sees them.
    const { tool_calls: _c, ...rest } = m;
    return m.tool_calls === null ? rest : m;
  }
  const calls = m.tool_calls.filter(isObj).map((c) => {
    const f = isObj(c.function) ? c.function : {};
    return { ...c, function: { ...f, arguments: decoded(f.arguments) } };
  });
  return { ...m, tool_calls: calls };
}

function withObjectParameters(t: Obj): Obj {
  const f = isObj(t.function) ? t.function : null;
  return f ? { ...t, function: { ...f, parameters: decoded(f.parameters) } } : t;
}

function fromSharegpt(row: Obj): ChatInput {
  const messages: Obj[] = typeof row.system === 'string' && row.system ? [{ role: 'system', content: row.system }] : [];
  let pending: string[] = [];
  let n = 0;
  for (const turn of list(row.conversations).filter(isObj)) {
    const value = typeof turn.value === 'string' ? turn.value : '';
    if (turn.from === 'human') messages.push({ role: 'user', content: value });
    else if (turn.from === 'gpt') messages.push({ role: 'assistant', content: value });
    else if (turn.from === 'function_call') {
      const calls = [decoded(value)].flat().filter(isObj);
      pending = calls.map(() => `call_${n++}`);
      messages.push({
        role: 'assistant',
        content: '',
        tool_calls: calls.map((c, i) => ({
          id: pending[i],
          type: 'function',
          function: { name: c.name, arguments: c.arguments },
        })),
      });
    } else if (turn.from === 'observation') {
      const results = value.split(OBSERVATION_SEPARATOR);
      results.forEach((content, i) => messages.push({ role: 'tool', tool_call_id: pending[i] ?? null, content }));
    }
  }
  return { messages, tools: list(decoded(row.tools)).filter(isObj).map(withObjectParameters) };
}
