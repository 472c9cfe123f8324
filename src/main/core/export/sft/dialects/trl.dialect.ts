import type { PyObject, PyValue } from '../../../py/pyjson';
import type { AgentView } from '../agent-view';
import { jsonLine } from '../json-line';
import { type DialectSpec, err, type Issue, isRecord, warn, withThought } from './dialect';
import { lintMessages, lintTools } from './messages.lint';

/**
 * One TRL `SFTTrainer` row (formats.md §3.1): object arguments, named tool messages, tools as a list or JSON string.
 */
export type TrlRow = { messages: PyObject[]; tools: PyValue[] | string };

export const trlDialect: DialectSpec<TrlRow> = {
  id: 'trl',
  // `tools` is an optional column: apply_chat_template(messages, tools=[]) renders calls and results without a tool
  // list. The view's final results stay: TRL takes any last role, and trains only what it marks (§3.1).
  withoutSchemas: null,
  optionProblems: (o) =>
    o.reasoning.mode === 'key' && ['role', 'content', 'tool_calls', 'tool_call_id', 'name'].includes(o.reasoning.key)
      ? [`reasoning key ${o.reasoning.key} is already a message field`]
      : [],
  render(v: AgentView, o) {
    const warnings: Issue[] = [];
    const messages: PyObject[] = v.system === null ? [] : [{ role: 'system', content: v.system }];
    for (const m of v.messages) {
      if (m.role === 'user') messages.push({ role: 'user', content: m.content });
      else if (m.role === 'tool')
        messages.push({ role: 'tool', name: m.name, tool_call_id: m.callId, content: m.content });
      else {
        const out: PyObject = { role: 'assistant' };
        const text = withThought(m.content ?? '', m.reasoning, o);
        // Always a string: Qwen3's template adds content to text, and datasets fills an absent key with None.
        out.content = text;
        if (m.calls.length)
          out.tool_calls = m.calls.map((c) => ({
            type: 'function',
            id: c.id,
            function: { name: c.name, arguments: c.parsed },
          }));
        if (o.reasoning.mode === 'key' && m.reasoning) out[o.reasoning.key] = m.reasoning;
        if (m.weight === 0)
          warnings.push(
            warn('weight_ignored', 'an assistant turn with weight 0 is trained (TRL has no per-message weight)'),
          );
        messages.push(out);
      }
    }
    const tools = v.tools as unknown as PyValue[];
    return { ok: true, row: { messages, tools: o.trlTools === 'json-string' ? jsonLine(tools) : tools }, warnings };
  },
  lint(row) {
    if (!isRecord(row)) return [err('row_shape', 'the row is not an object')];
    const out: Issue[] = [];
    let tools = row.tools;
    if (typeof tools === 'string') {
      tools = parseList(tools);
      if (!tools) out.push(err('tools_shape', 'tools is a string that is not a JSON list'));
    }
    const names = tools === undefined ? null : lintTools(tools, 'object', out);
    out.push(
      ...lintMessages(row.messages, names, {
        argumentsAs: 'object',
        toolName: 'required',
        allowedKeys: null,
        nullsForAbsent: false,
        endsOn: 'assistant-or-results',
      }),
    );
    return out;
  },
};

function parseList(s: string): unknown[] | undefined {
  try {
    const v = JSON.parse(s);
    return Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
