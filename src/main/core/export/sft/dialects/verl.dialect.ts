import type { PyValue } from '../../../py/pyjson';
import type { AgentView } from '../agent-view';
import { jsonLine } from '../json-line';
import { type DialectSpec, err, type Issue, isRecord, warn, withThought } from './dialect';
import { lintMessages, lintTools } from './messages.lint';

/**
 * One verl `MultiTurnSFTDataset` row (formats.md §3.4). `messages` and `tools` are real nested
 * parquet types (LIST<STRUCT>), but every free-form JSON value is a JSON string: call arguments and
 * tool parameters. Parquet gives each struct one fixed key set, so objects whose keys differ from
 * call to call would come back null-filled (verl#4112); strings round-trip exactly. The trainer
 * decodes both before apply_chat_template (the manifest says so).
 */
export type VerlCall = { id: string; type: 'function'; function: { name: string; arguments: string } };
export type VerlMessage = {
  role: string;
  content: string | null;
  tool_calls: VerlCall[] | null;
  tool_call_id: string | null;
  name: string | null;
} & Record<string, unknown>;
export type VerlTool = {
  type: 'function';
  function: { name: string; description: string | null; parameters: string };
};
export type VerlRow = { messages: VerlMessage[]; tools: VerlTool[] };

const RESERVED = new Set(['role', 'content', 'tool_calls', 'tool_call_id', 'name']);
const blank = { tool_calls: null, tool_call_id: null, name: null };

export const verlDialect: DialectSpec<VerlRow> = {
  id: 'verl',
  // `tools` is optional for MultiTurnSFTDataset (an empty list renders no tool block); loss is on assistant
  // messages only, so the final results may end a row as context (§3.4).
  withoutSchemas: null,
  optionProblems: (o) =>
    o.reasoning.mode === 'key' && RESERVED.has(o.reasoning.key)
      ? [`reasoning key ${o.reasoning.key} is already a message field`]
      : [],
  render(v: AgentView, o) {
    const warnings: Issue[] = [];
    const extra = (r: string | null) => (o.reasoning.mode === 'key' ? { [o.reasoning.key]: r } : {});
    const messages: VerlMessage[] =
      v.system === null ? [] : [{ role: 'system', content: v.system, ...blank, ...extra(null) }];
    for (const m of v.messages) {
      if (m.role === 'user') messages.push({ role: 'user', content: m.content, ...blank, ...extra(null) });
      else if (m.role === 'tool')
        messages.push({
          role: 'tool',
          content: m.content,
          ...blank,
          tool_call_id: m.callId,
          name: m.name,
          ...extra(null),
        });
      else {
        const text = withThought(m.content ?? '', m.reasoning, o);
        messages.push({
          role: 'assistant',
          content: text || !m.calls.length ? text : null,
          ...blank,
          tool_calls: m.calls.length
            ? m.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }))
            : null,
          ...extra(o.reasoning.mode === 'key' ? m.reasoning : null),
        });
        if (m.weight === 0)
          warnings.push(warn('weight_ignored', 'an assistant turn with weight 0 is trained (not emitted for verl)'));
      }
    }
    const tools: VerlTool[] = v.tools.map((t) => ({
      type: 'function',
      function: {
        name: t.function.name,
        description: typeof t.function.description === 'string' ? t.function.description : null,
        parameters: jsonLine(t.function.parameters as PyValue),
      },
    }));
    return { ok: true, row: { messages, tools }, warnings };
  },
  lint(row) {
    if (!isRecord(row)) return [err('row_shape', 'the row is not an object')];
    const out: Issue[] = [];
    const names = lintTools(row.tools, 'string', out);
    out.push(
      ...lintMessages(row.messages, names, {
        argumentsAs: 'string',
        toolName: 'optional',
        allowedKeys: null,
        nullsForAbsent: true,
        endsOn: 'assistant-or-results',
      }),
    );
    // verl indexes message["content"] on every message: the key must exist (null is fine).
    if (Array.isArray(row.messages))
      row.messages.forEach((m, i) => {
        if (isRecord(m) && !('content' in m)) out.push(err('content_missing', `messages[${i}] has no content key`));
      });
    return out;
  },
};
