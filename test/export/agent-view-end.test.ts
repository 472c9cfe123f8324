import { describe, expect, it } from 'vitest';
import type { Message, Trajectory } from '../../src/shared/contract/entities/trajectory';
import { previewSft, type SftRecord } from '../../src/main/core/export/sft';
import { DIALECTS } from '../../src/main/core/export/sft/dialects';
import { readRecord } from '../../src/main/core/trajectories/formats';
import { TELECOM_TOOLS, telecomResults } from '../helpers/tau2-telecom';
import { batch, callOf, rec, say, trajectory, user } from './build';

type Obj = Record<string, unknown>;
const DIALECT_IDS = ['trl', 'openai', 'llamafactory', 'verl'] as const;
type Dialect = (typeof DIALECT_IDS)[number];
const OPEN = { pools: { mixed: { minReward: null, converter: false } } };

const preview = (records: SftRecord[], dialect: Dialect, options: Obj = {}) =>
  previewSft({ records, dialect, options: { ...OPEN, ...options }, findings: 1000 });

/** Every call id a rendered row makes, whatever the dialect's shape (LLaMA-Factory values carry no ids: names). */
function callsOf(row: Obj): string[] {
  if (Array.isArray(row.conversations))
    return (row.conversations as { from: string; value: string }[])
      .filter((t) => t.from === 'function_call')
      .flatMap((t) => [JSON.parse(t.value)].flat().map((c: { name: string }) => c.name));
  return (row.messages as { tool_calls?: { id: string }[] | null }[]).flatMap((m) =>
    (m.tool_calls ?? []).map((c) => c.id),
  );
}

/** The last turn of every τ-bench run that hands over: a call-only message, its result, then nothing. */
const transferEnd = (text: string | null): Message[] => [
  user('I want a refund for a basic economy flight.'),
  ...batch('look', 1),
  say('Basic economy cannot be refunded; I can transfer you to a human agent.'),
  user('Yes, please transfer me.'),
  { role: 'assistant', content: text, reasoning: null, tool_calls: [callOf('call_transfer', { summary: 'refund' })] },
  { role: 'tool', tool_call_id: 'call_transfer', name: 'lookup', content: 'Transfer successful', is_error: false },
];

describe("the agent's final action is kept (issue 18)", () => {
  for (const text of [null, 'I am transferring you now.'])
    it(`a run ending on a call (${text ? 'with' : 'without'} text) keeps the call in every dialect`, () => {
      for (const d of DIALECT_IDS) {
        const p = preview([rec(trajectory('t', transferEnd(text)))], d);
        expect(p.report.exported, `${d}: ${JSON.stringify(p.report.rejections)}`).toBe(1);
        const row = p.sample!.row as Obj;
        expect(callsOf(row), d).toEqual(d === 'llamafactory' ? ['lookup', 'lookup'] : ['look_0', 'call_transfer']);
        expect(
          p.findings.filter((f) => f.severity === 'error'),
          d,
        ).toEqual([]);
        expect(
          DIALECTS[d].lint(row).filter((i) => i.severity === 'error'),
          d,
        ).toEqual([]);
      }
    });

  it('TRL and verl keep the result too; OpenAI and LLaMA-Factory end on the call and count the result left out', () => {
    const t = trajectory('t', [...transferEnd(null), user('###STOP###')]);
    const last = (d: Dialect) => {
      const p = preview([rec(t)], d);
      const row = p.sample!.row as Obj;
      const list = (row.messages ?? row.conversations) as Obj[];
      return { last: list.at(-1)!, dropped: p.report.lint.byCode.final_results_dropped ?? 0 };
    };
    expect(last('trl')).toEqual({
      last: expect.objectContaining({ role: 'tool', content: 'Transfer successful' }),
      dropped: 0,
    });
    expect(last('verl')).toEqual({
      last: expect.objectContaining({ role: 'tool', content: 'Transfer successful' }),
      dropped: 0,
    });
    expect(last('openai')).toEqual({ last: expect.objectContaining({ role: 'assistant' }), dropped: 1 });
    expect(last('llamafactory')).toEqual({ last: expect.objectContaining({ from: 'function_call' }), dropped: 1 });
  });

  it('a last call without a result (a run cut short) is kept as the last turn', () => {
    const messages: Message[] = [
      user('Cancel reservation X1.'),
      { role: 'assistant', content: null, reasoning: null, tool_calls: [callOf('cut', { id: 'X1' })] },
    ];
    for (const d of DIALECT_IDS) {
      const p = preview([rec(trajectory('t', messages))], d);
      expect(p.report.exported, d).toBe(1);
      expect(callsOf(p.sample!.row as Obj), d).toEqual([d === 'llamafactory' ? 'lookup' : 'cut']);
      expect(p.report.lint.errors, d).toBe(0);
    }
  });
});

/** The two telecom simulations as the τ² reader imports them, with the agent's schemas. */
function telecomRecords(): { records: SftRecord[]; t: Trajectory[] } {
  const { file } = telecomResults();
  const { simulations, ...header } = file as { simulations: unknown[] } & Obj;
  const t = simulations.map((s) => readRecord('tau2', JSON.stringify(s), { file: 'telecom.json', header }).trajectory);
  return { t, records: t.map((x) => rec({ ...x, tools: TELECOM_TOOLS })) };
}

describe('user-side tool calls (τ² telecom, issue 17)', () => {
  it('are left out of the agent view with a counted warning, never as malformed', () => {
    const { calls } = telecomResults();
    for (const d of DIALECT_IDS) {
      const { records } = telecomRecords();
      const p = preview(records, d);
      expect(p.report.rejections, d).toEqual({});
      expect(p.report.exported, d).toBe(2);
      expect(p.report.lint.byCode.user_tool_calls_excluded, d).toBe(2);
      expect(p.findings.find((f) => f.code === 'user_tool_calls_excluded')!.message).toMatch(/^3 user-side tool call/);
      const text = p.sample!.text;
      for (const c of calls[0]!.user) expect(text, d).not.toContain(c.id);
      expect(text, d).not.toContain('Airplane mode: ON');
    }
  });

  it('keep every agent call, and a user turn that only ran tools adds no empty turn', () => {
    const { records } = telecomRecords();
    const { calls } = telecomResults();
    const p = previewSft({ records: [records[1]!], dialect: 'trl', options: OPEN });
    const ms = (p.sample!.row as { messages: { role: string; content?: string }[] }).messages;
    expect(callsOf(p.sample!.row as Obj)).toEqual(calls[1]!.agent.map((c) => c.id));
    expect(ms.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'My SIM asks for a PIN I do not know.',
      'It still asks for the PIN. Can a person help me?',
    ]);
    expect(ms.at(-1)).toMatchObject({ role: 'tool', content: 'Transfer successful' });
  });
});

describe('the no-schema path (issue 17)', () => {
  const bare = () => [1, 2, 3].map((i) => rec(trajectory(`n${i}`, transferEnd(null), { tools: [] })));

  it('by default a tool-calling record without schemas is refused, the reason naming --tools', () => {
    const p = preview(bare(), 'trl');
    expect(p.report.rejections.missing_tool_schemas?.count).toBe(3);
    expect(p.examples.missing_tool_schemas![0]!.detail).toContain('--tools FILE');
  });

  it('TRL, LLaMA-Factory and verl render without schemas when asked; OpenAI says once why it cannot', () => {
    for (const d of DIALECT_IDS) {
      const p = preview(bare(), d, { requireToolSchemas: false });
      if (d === 'openai') {
        expect(p.report.exported).toBe(0);
        expect(p.report.rejections.missing_tool_schemas).toMatchObject({ count: 3 });
        expect(p.report.rejections.missing_tool_schemas!.detail).toMatch(/OpenAI fine-tuning builds the prompt/);
        expect(p.findings).toEqual([]);
        continue;
      }
      expect(p.report.exported, `${d}: ${JSON.stringify(p.report.rejections)}`).toBe(3);
      expect(p.report.lint.errors, d).toBe(0);
      const row = p.sample!.row as Obj;
      expect(row.tools, d).toEqual(d === 'llamafactory' ? '' : []);
      expect(callsOf(row).length, d).toBe(2);
    }
  });
});
