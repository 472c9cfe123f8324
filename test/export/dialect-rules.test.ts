import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/shared/contract/entities/trajectory';
import { previewSft, type SftRecord } from '../../src/main/core/export/sft';
import { inlineSchemaDefs } from '../../src/main/core/export/sft/tool-schemas';
import { batch, callOf, rec, say, sys, trajectory, user } from './build';

type Obj = Record<string, unknown>;
const OPEN = { pools: { mixed: { minReward: null, converter: false } } };
const one = (
  messages: Message[],
  dialect: 'trl' | 'openai' | 'llamafactory' | 'verl',
  options: Obj = {},
  m: Partial<SftRecord> = {},
) => {
  const p = previewSft({ records: [rec(trajectory('x', messages), m)], dialect, options: { ...OPEN, ...options } });
  const [reason, r] = Object.entries(p.report.rejections)[0] ?? [];
  return {
    p,
    reason,
    detail: r ? p.examples[reason as keyof typeof p.examples]![0]!.detail : null,
    row: p.sample?.row as Obj | undefined,
  };
};
const conv = (row: Obj | undefined) => (row!.conversations as { from: string; value: string }[]).map((t) => t.from);

describe('the agent view every dialect renders from (formats.md §1.4, §1.7)', () => {
  it("ends on the agent's last turn with its calls; their results stay where the trainer takes them", () => {
    const messages: Message[] = [
      user('Book it.'),
      ...batch('a', 1),
      { role: 'assistant', content: 'Booking now.', reasoning: null, tool_calls: [callOf('late', { id: 'x' })] },
      { role: 'tool', tool_call_id: 'late', name: 'lookup', content: 'ok', is_error: false },
      user('###STOP###'),
    ];
    const ms = one(messages, 'trl').row!.messages as Obj[];
    expect(ms.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(ms.at(-2)).toMatchObject({ role: 'assistant', content: 'Booking now.', tool_calls: [{ id: 'late' }] });
    const openai = one(messages, 'openai');
    const oms = openai.row!.messages as Obj[];
    expect(oms.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(oms.at(-1)).toMatchObject({ tool_calls: [{ id: 'late' }] });
    expect(openai.p.report.lint.byCode.final_results_dropped).toBe(1);
  });

  it('drops user-side (dual-control) calls and their results, and empty assistant turns', () => {
    const userCall = { ...callOf('u1', { line: 1 }), requestor: 'user' as const };
    const messages: Message[] = [
      user('My phone is off.'),
      { role: 'assistant', content: null, reasoning: 'thinking…', tool_calls: [userCall] },
      { role: 'tool', tool_call_id: 'u1', name: 'lookup', content: 'rebooted', is_error: false },
      ...batch('a', 1),
      say('It works now.'),
    ];
    const ms = one(messages, 'openai').row!.messages as Obj[];
    expect(ms.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(JSON.stringify(ms)).not.toContain('u1');
  });

  it('rejects what no dialect can carry, with the reason and what exactly is wrong', () => {
    const c = callOf('c1', { id: 'a' });
    const cases: [Message[], string, RegExp, Obj?][] = [
      [
        [
          user('x'),
          {
            role: 'assistant',
            content: null,
            reasoning: null,
            tool_calls: [{ ...c, parsed_arguments: null, function: { name: 'lookup', arguments: '{bad' } }],
          },
          { role: 'tool', tool_call_id: 'c1', name: 'lookup', content: '', is_error: false },
          say('ok'),
        ],
        'unparseable_arguments',
        /c1 \(lookup\)/,
      ],
      [
        [
          user('x'),
          { role: 'assistant', content: null, reasoning: null, tool_calls: [c] },
          { role: 'tool', tool_call_id: 'zz', name: 'lookup', content: '', is_error: false },
          say('ok'),
        ],
        'malformed_trajectory',
        /answers zz; call c1 is next/,
      ],
      [
        [user('x'), { role: 'assistant', content: null, reasoning: null, tool_calls: [c] }, say('ok')],
        'malformed_trajectory',
        /call c1 has no result/,
      ],
      [
        [
          user('x'),
          { role: 'assistant', content: null, reasoning: null, tool_calls: [{ ...c, parsed_arguments: { id: 'b' } }] },
          { role: 'tool', tool_call_id: 'c1', name: 'lookup', content: '', is_error: false },
          say('ok'),
        ],
        'malformed_trajectory',
        /disagrees/,
      ],
      [[user('x'), sys('late system'), say('ok')], 'malformed_trajectory', /system message at index 1/],
      [[user('x'), ...batch('b', 1), say('ok')], 'missing_tool_schemas', /carries no tool schemas/, { tools: [] }],
      [
        [
          user('x'),
          { role: 'assistant', content: null, reasoning: null, tool_calls: [callOf('c9', {}, 'delete_all')] },
          { role: 'tool', tool_call_id: 'c9', name: 'delete_all', content: '', is_error: false },
          say('ok'),
        ],
        'unknown_tool',
        /delete_all/,
      ],
    ];
    for (const [messages, reason, detail, extra] of cases) {
      const t = trajectory('x', messages, extra);
      const p = previewSft({ records: [rec(t)], dialect: 'trl', options: OPEN });
      expect(Object.keys(p.report.rejections), reason).toEqual([reason]);
      expect(p.examples[reason as 'malformed_trajectory']![0]!.detail).toMatch(detail);
    }
  });

  it('a body that cannot be loaded or read is rejected with the error; the other records are exported', () => {
    const good = rec(trajectory('good', [user('hi'), say('hello')]));
    const unreadable = {
      ...rec(trajectory('bad-json', [])),
      trajectory: () => JSON.parse('{"messages": [') as never,
    };
    const shapeless = { ...rec(trajectory('no-messages', [])), trajectory: { trajectory_id: 'x' } as never };
    const p = previewSft({ records: [unreadable, good, shapeless], dialect: 'verl', options: OPEN });
    expect(p.report.exported).toBe(1);
    expect(p.report.rejections.malformed_trajectory!.count).toBe(2);
    expect(p.examples.malformed_trajectory![0]!.detail).toMatch(/^cannot read the trajectory: .*JSON/);
  });
});

describe('LLaMA-Factory rules (formats.md §3.3)', () => {
  it('drops the leading greeting, joins consecutive turns, one function_call and observation per batch', () => {
    const messages: Message[] = [
      sys('policy'),
      say('Hi! How can I help you today?'),
      user('Change my flight.'),
      user('It is tomorrow.'),
      say('Let me look.'),
      ...batch('p', 3),
      say('Found it.'),
    ];
    const { row, p } = one(messages, 'llamafactory');
    expect(conv(row)).toEqual(['human', 'function_call', 'observation', 'gpt']);
    const turns = row!.conversations as { value: string }[];
    expect(turns[0]!.value).toBe('Change my flight.\n\nIt is tomorrow.');
    expect(JSON.parse(turns[1]!.value)).toHaveLength(3);
    expect(turns[2]!.value.split('\n</tool_response>\n<tool_response>\n')).toHaveLength(3);
    expect(row!.system).toBe('policy');
    expect(p.report.lint.byCode).toEqual({
      leading_assistant_dropped: 1,
      consecutive_user_merged: 1,
      consecutive_assistant_merged: 1,
      text_dropped_with_tool_call: 1,
    });
  });

  it('text beside a call: dropped (counted), moved into thought markers, or the record rejected', () => {
    const messages: Message[] = [user('Look up a.'), ...batch('t', 1, undefined, 'Checking a.'), say('done')];
    expect(one(messages, 'llamafactory').p.report.lint.byCode.text_dropped_with_tool_call).toBe(1);
    const think = one(messages, 'llamafactory', { textWithToolCall: 'think' }).row!;
    expect((think.conversations as { value: string }[])[1]!.value).toBe(
      '<think>\nChecking a.\n</think>\n\n{"name": "lookup", "arguments": {"id": "r0"}}',
    );
    const r = one(messages, 'llamafactory', { textWithToolCall: 'reject' });
    expect(r.reason).toBe('not_expressible');
    expect(r.detail).toMatch(/text beside a tool call/);
  });

  it('a user message right after a tool result cannot alternate: rejected, not reordered', () => {
    const messages: Message[] = [user('a'), ...batch('o', 1), user('and b?'), say('both done')];
    const r = one(messages, 'llamafactory');
    expect(r.reason).toBe('not_expressible');
    expect(r.detail).toMatch(/observation → human/);
    expect(one(messages, 'trl').p.report.exported).toBe(1);
  });
});

describe('reasoning, weights and tool schemas', () => {
  const messages: Message[] = [user('2+2?'), say('4', 'Adding two and two.')];

  it('reasoning is dropped by default, or carried under a template key, or wrapped in thought markers', () => {
    expect(JSON.stringify(one(messages, 'trl').row)).not.toContain('Adding');
    const keyed = one(messages, 'trl', { reasoning: { mode: 'key', key: 'reasoning_content' } }).row!;
    expect((keyed.messages as Obj[])[1]).toEqual({
      role: 'assistant',
      content: '4',
      reasoning_content: 'Adding two and two.',
    });
    const lf = one(messages, 'llamafactory', { reasoning: { mode: 'think' } }).row!;
    expect((lf.conversations as { value: string }[])[1]!.value).toBe('<think>\nAdding two and two.\n</think>\n\n4');
    const verl = one(messages, 'verl', { reasoning: { mode: 'key', key: 'reasoning_content' } }).row!;
    expect((verl.messages as Obj[])[1]!.reasoning_content).toBe('Adding two and two.');
    expect(() => one(messages, 'openai', { reasoning: { mode: 'key', key: 'thinking' } })).toThrow(
      /no field for reasoning/,
    );
    expect(() => one(messages, 'llamafactory', { reasoning: { mode: 'key', key: 'thinking' } })).toThrow(
      /thought markers/,
    );
  });

  it('OpenAI honours a per-turn weight; the others train the turn and say so', () => {
    const weighted: Message[] = [
      user('hi'),
      { ...say('bad answer'), meta: { train_weight: 0 } } as Message,
      user('again'),
      say('good answer'),
    ];
    const ms = one(weighted, 'openai').row!.messages as Obj[];
    expect(ms[1]).toEqual({ role: 'assistant', content: 'bad answer', weight: 0 });
    expect(one(weighted, 'trl').p.report.lint.byCode.weight_ignored).toBe(1);
    const allZero: Message[] = [user('hi'), { ...say('bad'), meta: { train_weight: 0 } } as Message];
    const r = one(allZero, 'openai');
    expect(r.reason).toBe('lint_failed');
    expect(r.detail).toMatch(/nothing_trained/);
  });

  it('inlines $defs (LLaMA-Factory by default) and keeps a recursive definition referenced', () => {
    const schema = {
      type: 'object',
      $defs: {
        Passenger: { type: 'object', properties: { name: { type: 'string' } } },
        Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } },
      },
      properties: {
        p: { $ref: '#/$defs/Passenger', description: 'who' },
        n: { $ref: '#/$defs/Node' },
        definitions: { type: 'string' },
      },
    };
    const out = inlineSchemaDefs(schema);
    expect(out.properties).toEqual({
      p: { type: 'object', properties: { name: { type: 'string' } }, description: 'who' },
      n: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } },
      definitions: { type: 'string' },
    });
    expect(out.$defs).toEqual(schema.$defs);
    expect(
      inlineSchemaDefs({ type: 'object', $defs: { A: { type: 'string' } }, properties: { a: { $ref: '#/$defs/A' } } }),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
    });
  });
});
