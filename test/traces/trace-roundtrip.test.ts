import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Trajectory } from '../../src/shared/contract/entities/trajectory';
import { PyFloat } from '../../src/main/core/py/pyjson';
import { lastAudits, runRecordOf } from '../../src/main/core/grading/run-record';
import { readTrace, writeTrace } from '../../src/main/core/traces';
import { synthTrajectory } from '../helpers/claw-traces';
import { CLAW_ROOT, hasGoldens } from '../helpers/goldens';

const FIXTURES = path.join(__dirname, 'fixtures');
const fixture = (f: string) => fs.readFileSync(path.join(FIXTURES, f), 'utf8');
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const canRun = hasGoldens && fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
/** sha256 of the same runs written by real pydantic (fixtures/make-pydantic-traces.py). */
const PYDANTIC = JSON.parse(fixture('corpus-traces.json')) as {
  pydantic: string;
  traces: Record<string, { sha256: string; bytes: number; lines: number }>;
};

describe.skipIf(!canRun)('traces synthesised from the corpus (recorded goldens + task.yaml prompts)', () => {
  for (const id of Object.keys(PYDANTIC.traces)) {
    it(`${id}: written as pydantic ${PYDANTIC.pydantic} writes it; read(write(t)) = t; write(read(x)) = x`, () => {
      const traj = synthTrajectory(id);
      expect(Trajectory.safeParse(traj).success).toBe(true);
      const x = writeTrace(traj);
      const want = PYDANTIC.traces[id]!;
      expect({ bytes: Buffer.byteLength(x), lines: x.split('\n').length - 1, sha256: sha(x) }).toEqual(want);
      const { trajectory, warnings } = readTrace(x);
      expect(warnings).toEqual([]);
      expect(trajectory).toEqual(traj);
      expect(writeTrace(trajectory)).toBe(x);
    });
  }

  it('keeps Python floats in bodies and audits: 328.0 stays a float, integers stay integers', () => {
    const { trajectory } = readTrace(writeTrace(synthTrajectory('T011zh_expense_report')));
    const body = JSON.stringify(trajectory.dispatches.map((d) => d.body));
    expect(body).toContain('{"value":'); // PyFloat survived the read
    expect(trajectory.dispatches.some((d) => d.status === 422)).toBe(true);
    const audits = lastAudits(trajectory);
    expect(Object.keys(audits)).toEqual(['finance']);
  });

  it('a tool-result text is kept verbatim, and is_error with it', () => {
    const t = synthTrajectory('T006_email_reply_draft');
    const { trajectory } = readTrace(writeTrace(t));
    const tools = trajectory.messages.filter((m) => m.role === 'tool');
    expect(tools.length).toBe(t.dispatches.length);
    expect(tools.filter((m) => m.is_error).length).toBe(t.dispatches.filter((d) => d.status >= 400).length);
    expect(tools.every((m) => m.role === 'tool' && m.name !== '')).toBe(true);
  });
});

describe('a trace written by pydantic with every event type and the awkward values (fixtures/edge.jsonl)', () => {
  const text = fixture('edge.jsonl');
  const { trajectory: t, warnings } = readTrace(text);

  it('comes back byte-identical, and its trajectory passes the contract schema', () => {
    expect(writeTrace(t)).toBe(text);
    expect(Trajectory.safeParse(t).success).toBe(true);
    expect(readTrace(writeTrace(t)).trajectory).toEqual(t);
  });

  it('maps messages onto the canonical shape (formats.md §2.4)', () => {
    const [user, assistant, tool1, tool2] = t.messages;
    expect(user).toMatchObject({
      role: 'user',
      origin: 'task',
      content: expect.stringMatching(/^Look at the chart: 名字/),
      meta: { attachments: [{ type: 'image', mime_type: 'image/png', source_path: 'fixtures/a.png' }] },
    });
    expect(assistant).toMatchObject({
      role: 'assistant',
      content: 'First part.\nSecond part.',
      reasoning: 'Two text blocks, then calls.',
      meta: { usage: { prompt_tokens: 1500, completion_tokens: 64 } },
    });
    const call = assistant!.role === 'assistant' ? assistant!.tool_calls[0]! : undefined;
    expect(call).toMatchObject({
      id: 'toolu_a',
      function: { name: 'finance_get_transaction' },
      arguments_origin: 'serialized',
      requestor: 'assistant',
    });
    expect(call!.function.arguments).toBe(
      '{"amount":328.0,"tiny":0.00001,"tinier":1.5e-7,"huge":1e+16,"neg_zero":-0.0,' +
        '"third":0.3333333333333333,"count":7,"ratio":0.1}',
    );
    expect(call!.parsed_arguments!.amount).toEqual(new PyFloat(328));
    expect([tool1, tool2]).toMatchObject([
      { role: 'tool', tool_call_id: 'toolu_a', name: 'finance_get_transaction', is_error: false },
      { role: 'tool', tool_call_id: 'toolu_b', name: 'no_such_tool', is_error: true },
    ]);
    // Two text blocks cannot be told apart once joined: the blocks are kept verbatim for the write-back.
    expect(assistant!.meta?.trace?.blocks).toHaveLength(4);
    expect(t.messages.find((m) => m.role === 'user' && m.origin === 'simulated_user')?.content).toBe(
      '[user_agent]\nYes, send it to finance.',
    );
    expect(t.messages.filter((m) => m.role === 'system')).toHaveLength(1);
  });

  it('keeps media loads, the compact event (upstream cannot read it: warned), audits, the end, gradings', () => {
    expect(t.media.map((m) => [m.modality, m.status, m.note])).toEqual([
      ['image', 'loaded', ''],
      ['document', 'skipped', 'too large'],
    ]);
    expect(t.compactions).toMatchObject([{ layer: 'auto', estimated_tokens_before: 90000, messages_after: 6 }]);
    expect(warnings).toEqual([expect.stringMatching(/^trace line 12: a compact event .*load_trace/)]);
    expect(t.audits.map((a) => a.service)).toEqual(['finance', 'notes', 'finance']);
    expect(lastAudits(t).finance).toMatchObject({ submitted_reports: [{ title: 'Q1' }] }); // the last snapshot wins
    expect(t.end).toMatchObject({
      total_turns: 5,
      wall_time_s: 13,
      failure_modes: ['TimeoutError: model call exceeded 60 s'],
      user_agent_done: true,
    });
    expect(t.gradings).toHaveLength(2);
    expect(t).toMatchObject({
      scores: { completion: 0.85, robustness: 0.5, safety: 1, communication: 0.7 },
      reward: 0.78,
      valid: true,
      trace: { persona: 'analyst' },
    });
  });

  it('writes the compact event only when asked for a trace upstream can read', () => {
    expect(writeTrace(t, { forUpstream: true }).split('\n')).toHaveLength(text.split('\n').length - 1);
  });

  it('gives the grader what it reads: dispatches, the last assistant text, audits minus calls', () => {
    const run = runRecordOf(t);
    expect(run.dispatches.map((d) => [d.tool, d.status])).toEqual([
      ['finance_get_transaction', 200],
      ['no_such_tool', 404],
      ['notes_list', 500],
    ]);
    expect(run.finalText).toBe('Sent. Total 328.0 CNY.');
    expect(t.messages[run.finalMessageIndex!]!.content).toBe(run.finalText);
    expect(run.audits.finance).toEqual({ submitted_reports: [{ title: 'Q1', total_amount: new PyFloat(328) }] });
  });
});

describe('later upstream traces (cache-token fields in usage and trace_end)', () => {
  it('round-trip byte-identically, with the cache tokens kept', () => {
    const text = fixture('later-upstream.jsonl');
    const { trajectory } = readTrace(text);
    expect(writeTrace(trajectory)).toBe(text);
    expect(trajectory.messages[1]!.meta?.usage).toEqual({
      prompt_tokens: 900,
      completion_tokens: 5,
      cached_input_tokens: 800,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 800,
    });
    expect(trajectory.end).toMatchObject({ cached_input_tokens: 800, cache_creation_input_tokens: 0 });
  });
});

describe('a trajectory made in the app (no source positions)', () => {
  it('is written in upstream order (each dispatch after the turn that made its call), reads back equal', () => {
    const { trajectory } = readTrace(fixture('edge.jsonl'));
    const strip = <T extends { meta?: unknown }>(x: T) => ({ ...x, meta: undefined });
    const app = {
      ...trajectory,
      trace: { ...trajectory.trace!, meta: undefined },
      dispatches: [...trajectory.dispatches].reverse().map(strip),
      audits: trajectory.audits.map(strip),
      media: trajectory.media.map(strip),
      compactions: [],
      end: null,
      gradings: [],
    };
    const text = writeTrace(app, { now: () => new Date('2026-03-05T10:00:00Z') });
    const types = text
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types.slice(0, 8)).toEqual([
      'trace_start',
      'media_load',
      'media_load',
      'message',
      'message',
      'tool_dispatch',
      'tool_dispatch',
      'message',
    ]);
    const back = readTrace(text).trajectory;
    expect(back.dispatches.map((d) => d.call_id)).toEqual(['toolu_a', 'toolu_b', 'toolu_c']);
    expect(back.messages.map((m) => [m.role, m.content])).toEqual(trajectory.messages.map((m) => [m.role, m.content]));
    expect(text).toContain('"timestamp":"2026-03-05T10:00:00+00:00"');
  });
});
