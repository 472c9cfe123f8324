import type { PyObject, PyValue } from '../../../py/pyjson';
import type { AgentView } from '../agent-view';
import { type DialectSpec, err, type Issue, isRecord, withoutFinalResults } from './dialect';
import { lintMessages, lintTools } from './messages.lint';

/** One OpenAI fine-tuning line (formats.md §3.2): verbatim string arguments, only documented keys. */
export type OpenAiRow = { messages: PyObject[]; tools?: PyValue[]; parallel_tool_calls?: boolean };

const KEYS = {
  system: ['role', 'content'],
  user: ['role', 'content'],
  assistant: ['role', 'content', 'tool_calls', 'weight'],
  tool: ['role', 'tool_call_id', 'content'],
} as const;

export const openaiDialect: DialectSpec<OpenAiRow> = {
  id: 'openai',
  withoutSchemas:
    "OpenAI fine-tuning builds the prompt from each line's `tools` on its own servers, so a line that calls " +
    'functions it does not define teaches calls to undefined tools and cannot be render-checked here (formats.md ' +
    '§1.7): import the trajectories with --tools FILE, or export to TRL, LLaMA-Factory or verl, which render ' +
    'without schemas',
  optionProblems: (o) =>
    o.reasoning.mode === 'drop' ? [] : ['OpenAI fine-tuning has no field for reasoning: use reasoning {mode: "drop"}'],
  render(v: AgentView) {
    const warnings: Issue[] = [];
    const messages: PyObject[] = v.system === null ? [] : [{ role: 'system', content: v.system }];
    // OpenAI's own tool-calling examples end on the assistant's call; the results after it train nothing.
    for (const m of withoutFinalResults(v, warnings)) {
      if (m.role === 'user') messages.push({ role: 'user', content: m.content });
      else if (m.role === 'tool') messages.push({ role: 'tool', tool_call_id: m.callId, content: m.content });
      else {
        // A call-only turn omits `content`, as OpenAI's own tool-call examples and the τ² SFT file do (§2.3).
        const out: PyObject = { role: 'assistant' };
        if (m.content !== null && (m.content !== '' || !m.calls.length)) out.content = m.content;
        if (m.calls.length)
          out.tool_calls = m.calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: c.arguments },
          }));
        if (m.weight !== null) out.weight = m.weight;
        messages.push(out);
      }
    }
    const row: OpenAiRow = { messages };
    if (v.tools.length) {
      row.tools = v.tools as unknown as PyValue[];
      // The source's own value when it has one (an OpenAI-FT import re-emits it, §2.3); otherwise per row, not per
      // file ([ours], deviating from §3.2's file-wide rule, which would need a second pass over the bodies): a row
      // that makes parallel calls says true, one that makes none says false. Lint refuses false with parallel calls.
      row.parallel_tool_calls = v.parallelToolCalls ?? v.counts.maxParallel > 1;
    }
    return { ok: true, row, warnings };
  },
  lint(row) {
    if (!isRecord(row)) return [err('row_shape', 'the row is not an object')];
    const out: Issue[] = [];
    for (const k of Object.keys(row))
      if (!['messages', 'tools', 'parallel_tool_calls'].includes(k)) out.push(err('undocumented_key', `row key ${k}`));
    const names = row.tools === undefined ? new Set<string>() : lintTools(row.tools, 'object', out);
    if (row.parallel_tool_calls !== undefined && typeof row.parallel_tool_calls !== 'boolean')
      out.push(err('parallel_tool_calls', 'parallel_tool_calls is not a boolean'));
    out.push(
      ...lintMessages(row.messages, names, {
        argumentsAs: 'string',
        toolName: 'forbidden',
        allowedKeys: KEYS,
        nullsForAbsent: false,
        endsOn: 'assistant',
      }),
    );
    if (Array.isArray(row.messages)) {
      let trained = 0;
      row.messages.forEach((m, i) => {
        if (!isRecord(m) || m.role !== 'assistant') return;
        if (m.weight !== undefined && m.weight !== 0 && m.weight !== 1)
          out.push(err('weight', `messages[${i}].weight is not 0 or 1`));
        if (m.weight !== 0) trained++;
        const parallel = Array.isArray(m.tool_calls) && m.tool_calls.length > 1;
        if (parallel && row.parallel_tool_calls === false)
          out.push(err('parallel_tool_calls', `messages[${i}] makes parallel calls but parallel_tool_calls is false`));
      });
      if (!trained) out.push(err('nothing_trained', 'every assistant message has weight 0'));
    }
    return out;
  },
};
