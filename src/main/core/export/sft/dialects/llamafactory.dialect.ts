import { dumpsPy, type PyValue } from '../../../py/pyjson';
import type { AgentView, ViewAssistant } from '../agent-view';
import { jsonLine } from '../json-line';
import {
  type DialectSpec,
  err,
  type Issue,
  isPlainObject,
  isRecord,
  type Rendered,
  warn,
  withoutFinalResults,
  withThought,
} from './dialect';

/** One LLaMA-Factory sharegpt row (formats.md §3.3): `tools` is a JSON string, `system` its own column. */
export type LfTurn = { from: 'human' | 'gpt' | 'function_call' | 'observation'; value: string };
export type LfRow = { conversations: LfTurn[]; system: string; tools: string };

/** The separator LLaMA-Factory's own OpenAI converter puts between parallel results (§3.3 rule 6). */
export const OBSERVATION_SEPARATOR = '\n</tool_response>\n<tool_response>\n';

export const llamafactoryDialect: DialectSpec<LfRow> = {
  id: 'llamafactory',
  // `tools` may be "": the function formatter renders a call from its own {name, arguments}, the tool list only
  // adds the system block that describes them.
  withoutSchemas: null,
  optionProblems: (o) =>
    o.reasoning.mode === 'key'
      ? ['LLaMA-Factory has no reasoning column: use reasoning {mode: "drop"} or {mode: "think"} (thought markers)']
      : [],
  render: renderLf,
  lint: lintLf,
};

function renderLf(v: AgentView, o: Parameters<DialectSpec<LfRow>['render']>[1]): Rendered<LfRow> {
  const warnings: Issue[] = [];
  const turns: LfTurn[] = [];
  const last = () => turns[turns.length - 1];
  let sawUser = false;
  const callValue = (m: ViewAssistant) => {
    const calls = m.calls.map((c) => ({ name: c.name, arguments: c.parsed }));
    return dumpsPy((calls.length === 1 ? calls[0]! : calls) as PyValue);
  };
  // An even count ending on gpt or function_call (§3.3 rule 2): the final observation goes, the final call stays.
  for (const m of withoutFinalResults(v, warnings)) {
    if (m.role === 'user') {
      sawUser = true;
      const prev = last();
      if (prev?.from === 'human') {
        prev.value += `\n\n${m.content}`;
        warnings.push(warn('consecutive_user_merged', 'two user turns in a row were joined with a blank line'));
      } else if (prev?.from === 'observation')
        return reject('a user message directly follows a tool result (observation → human breaks the alternation)');
      else turns.push({ from: 'human', value: m.content });
      continue;
    }
    if (m.role === 'tool') {
      const prev = last();
      if (prev?.from === 'observation') prev.value += OBSERVATION_SEPARATOR + m.content;
      else turns.push({ from: 'observation', value: m.content });
      continue;
    }
    // A leading assistant greeting has no human turn before it (§3.3 rule 3).
    if (!sawUser) {
      warnings.push(warn('leading_assistant_dropped', 'an assistant turn before the first user turn was dropped'));
      continue;
    }
    let text = m.content ?? '';
    const prev = last();
    if (prev?.from === 'gpt') {
      // Two assistant turns in a row: one turn of LLaMA-Factory's (§3.3 rule 4).
      turns.pop();
      text = text ? `${prev.value}\n\n${text}` : prev.value;
      warnings.push(warn('consecutive_assistant_merged', 'two assistant turns in a row were joined'));
    }
    if (!m.calls.length) {
      turns.push({ from: 'gpt', value: withThought(text, m.reasoning, o) });
      continue;
    }
    let thought = o.reasoning.mode === 'think' && m.reasoning ? m.reasoning : '';
    if (text.trim()) {
      if (o.textWithToolCall === 'reject')
        return reject(
          'an assistant turn has text beside a tool call, which LLaMA-Factory cannot hold (textWithToolCall: reject)',
        );
      if (o.textWithToolCall === 'think') thought = thought ? `${thought}\n\n${text}` : text;
      else warnings.push(warn('text_dropped_with_tool_call', 'the text beside a tool call was dropped (§3.3 rule 7)'));
    }
    const value = callValue(m);
    const open = o.reasoning.mode === 'think' ? o.reasoning.open : '<think>\n';
    const close = o.reasoning.mode === 'think' ? o.reasoning.close : '\n</think>\n\n';
    turns.push({ from: 'function_call', value: thought ? `${open}${thought}${close}${value}` : value });
  }
  if (!turns.length || turns[0]!.from !== 'human') return reject('no user turn to start the conversation');
  for (const m of v.messages)
    if (m.role === 'assistant' && m.weight === 0)
      warnings.push(warn('weight_ignored', 'an assistant turn with weight 0 is trained (no per-turn weight here)'));
  return {
    ok: true,
    row: {
      conversations: turns,
      system: v.system ?? '',
      tools: v.tools.length ? jsonLine(v.tools as unknown as PyValue) : '',
    },
    warnings,
  };
}

const reject = (detail: string): Rendered<LfRow> => ({ ok: false, reason: 'not_expressible', detail });

const EVEN = new Set(['human', 'observation']);
const ODD = new Set(['gpt', 'function_call']);
/** A leading thought block LLaMA-Factory's function formatter strips before parsing the call JSON. */
const THOUGHT = /^<think>[\s\S]*?<\/think>\s*/;

/**
 * The rules LLaMA-Factory's converter checks (and skips the example on, silently) plus its function formatter's parse.
 */
function lintLf(row: unknown): Issue[] {
  if (!isRecord(row)) return [err('row_shape', 'the row is not an object')];
  const out: Issue[] = [];
  if (typeof row.system !== 'string') out.push(err('system_shape', 'system is not a string'));
  let toolNames: Set<string> | null = null;
  if (typeof row.tools !== 'string') out.push(err('tools_shape', 'tools is not a string'));
  else if (row.tools !== '') {
    toolNames = toolNamesOf(row.tools);
    if (!toolNames) out.push(err('tools_shape', 'tools is not a JSON list'));
  }
  const conv = row.conversations;
  if (!Array.isArray(conv) || !conv.length)
    return [...out, err('conversations_missing', 'conversations is not a non-empty list')];
  if (conv.length % 2 !== 0) out.push(err('odd_count', `${conv.length} turns: LLaMA-Factory needs an even count`));
  conv.forEach((t, i) => {
    const at = `conversations[${i}]`;
    if (!isRecord(t) || typeof t.from !== 'string' || typeof t.value !== 'string')
      return void out.push(err('turn_shape', `${at} is not {from, value} strings`));
    const want = i % 2 === 0 ? EVEN : ODD;
    if (!want.has(t.from))
      return void out.push(err('alternation', `${at} is ${t.from}; position ${i} must be ${[...want].join(' or ')}`));
    const next = conv[i + 1];
    if (t.from === 'function_call') {
      // The last turn may be a call whose result ends the episode: it is trained, its observation is not there.
      if (next !== undefined && (!isRecord(next) || next.from !== 'observation'))
        out.push(err('function_call_without_observation', `${at} is not followed by an observation`));
      // tools "" is a row without schemas (the no-schema path): its calls have nothing to be checked against.
      for (const c of callsOf(t.value, at, out))
        if (toolNames?.size && !toolNames.has(c)) out.push(err('unknown_tool', `${at} calls ${c}, not in tools`));
    }
    if (t.from === 'observation' && conv[i - 1] && (conv[i - 1] as { from?: unknown }).from !== 'function_call')
      out.push(err('observation_without_call', `${at} does not follow a function_call`));
    if (t.from === 'gpt' && !t.value.trim()) out.push(warn('empty_gpt_turn', `${at} is an empty assistant turn`));
  });
  return out;
}

/** The call names in a function_call value: a JSON {name, arguments} or a list of them, arguments an object. */
function callsOf(value: string, at: string, out: Issue[]): string[] {
  const v = tryParse(value.replace(THOUGHT, ''));
  const list = Array.isArray(v) ? v : [v];
  if (v === undefined || !list.length) {
    out.push(err('function_call_unparseable', `${at}.value is not JSON`));
    return [];
  }
  const names: string[] = [];
  for (const c of list) {
    if (!isRecord(c) || typeof c.name !== 'string') {
      out.push(err('function_call_shape', `${at}.value is not {"name", "arguments"}`));
      continue;
    }
    if (!isPlainObject(c.arguments))
      out.push(
        err('arguments_not_object', `${at}: arguments of ${c.name} is not an object (it would be double-encoded)`),
      );
    names.push(c.name);
  }
  return names;
}

/** The last tools string and its names: consecutive rows of a task carry the same schemas (a pure memo). */
let lastTools: { text: string; names: Set<string> | null } | null = null;

function toolNamesOf(text: string): Set<string> | null {
  if (lastTools?.text === text) return lastTools.names;
  const parsed = tryParse(text);
  const names = Array.isArray(parsed)
    ? new Set(
        parsed
          .map((t) => (isRecord(t) && isRecord(t.function) ? t.function.name : isRecord(t) ? t.name : null))
          .filter((n): n is string => typeof n === 'string'),
      )
    : null;
  lastTools = { text, names };
  return names;
}

function tryParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}
