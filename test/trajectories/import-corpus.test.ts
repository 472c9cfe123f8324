import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import type { Trajectory } from '../../src/shared/contract/entities/trajectory';
import type { ImportResult, TrajectoryRow } from '../../src/shared/contract/trajectories.contract';
import { ok } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';
import {
  allRows,
  hasTrajCorpus,
  importFiles,
  pairingProblems,
  TAU2_RESULTS,
  TAU2_SFT,
  TAU_BENCH,
} from '../helpers/trajectory-import';

/** A source message as the corpus files hold it (only what the assertions read). */
type SrcMessage = {
  role: string;
  content?: string | null;
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  raw_data?: { message?: { tool_calls?: { function: { arguments: string } }[] | null } } | null;
};
type Src = Record<string, unknown> & { task_id: string | number; trial: number; reward: number };
const tau = () => JSON.parse(fs.readFileSync(TAU_BENCH, 'utf8')) as (Src & { traj: unknown[] })[];
const tau2 = () =>
  JSON.parse(fs.readFileSync(TAU2_RESULTS, 'utf8')) as {
    simulations: (Src & { id: string; duration: number; reward_info: { reward: number }; messages: SrcMessage[] })[];
  };
const sft = () =>
  fs
    .readFileSync(TAU2_SFT, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { messages: SrcMessage[] });

describe.skipIf(!hasTrajCorpus)('trajectories.import on the τ-bench / τ²-bench corpus (skipped: corpus absent)', () => {
  let core: Core;
  let result: ImportResult;
  let rows: TrajectoryRow[];
  const trajectories = new Map<number, Trajectory>();
  const of = (collection: string) => rows.filter((r) => r.collection === collection);

  beforeAll(async () => {
    core = createTestCore().core;
    result = await importFiles(core, { paths: [TAU_BENCH, TAU2_RESULTS, TAU2_SFT] });
    rows = await allRows(core);
    for (const r of rows) trajectories.set(r.id, (await ok(core, 'trajectories.get', { id: r.id })).trajectory);
  }, 120_000);
  afterAll(async () => {
    await core.close();
  });

  it('stores every record of every file, each file sniffed and in its own collection', () => {
    expect(result).toMatchObject({ records: 257, stored: 257, duplicates: 0, refused: 0, external: 257, graded: 0 });
    expect(result.issueCount).toBe(0);
    expect(result.files.map((f) => [f.format, f.collection, f.stored])).toEqual([
      ['tau-bench', 'gpt-4o-airline', 200],
      ['tau2', 'gpt-4.1_airline_default_gpt-4.1_1trials', 20],
      ['openai-jsonl', 'train_sft-v1-small', 37],
    ]);
    expect(rows).toHaveLength(257);
    for (const [id, t] of trajectories) expect(pairingProblems(t), `trajectory ${id}`).toEqual([]);
  });

  it('τ-bench: rewards exactly as in the source, reused call ids made unique and results paired by turn', () => {
    const src = tau();
    const got = of('gpt-4o-airline');
    expect(got.map((r) => [r.source_task_id, r.trial, r.source_reward])).toEqual(
      src.map((s) => [String(s.task_id), s.trial, s.reward]),
    );
    expect(got.filter((r) => r.source_success).length).toBe(84);
    for (const r of got)
      expect(r).toMatchObject({ source_format: 'tau-bench-v1', external: true, graded: false, score: null });
    src.forEach((s, i) => expect(got[i]!.message_count).toBe(s.traj.length));
    const ts = got.map((r) => trajectories.get(r.id)!);
    const renamed = ts.filter((t) => t.messages.some((m) => m.meta?.source_ids));
    expect(renamed).toHaveLength(49);
    const first = ts[0]!;
    expect(first.trajectory_id).toBe('tau-bench/airline/0/0');
    const calls = first.messages.flatMap((m) => (m.role === 'assistant' ? m.tool_calls : []));
    const reused = calls.filter((c) => c.id.startsWith('call_oIHazX6yQrB8hUwl4cRilFKj'));
    expect(reused.map((c) => [c.id, c.function.name])).toEqual([
      ['call_oIHazX6yQrB8hUwl4cRilFKj', 'get_user_details'],
      ['call_oIHazX6yQrB8hUwl4cRilFKj#2', 'calculate'],
    ]);
    const result2 = first.messages.find((m) => m.role === 'tool' && m.tool_call_id === reused[1]!.id);
    expect(result2).toMatchObject({ name: 'calculate' });
    expect(ts.map((t) => t.termination).filter((x) => x === 'user_stop')).toHaveLength(147);
    expect(ts.map((t) => t.termination).filter((x) => x === 'transfer')).toHaveLength(48);
    expect(ts.map((t) => t.termination).filter((x) => x === 'max_steps')).toHaveLength(5);
    const pseudo = ts.flatMap((t) => t.messages.flatMap((m) => (m.role === 'assistant' ? m.tool_calls : [])));
    expect(pseudo.filter((c) => c.function.name === 'think')).toHaveLength(92);
    expect(pseudo.filter((c) => c.function.name === 'calculate')).toHaveLength(96);
    expect(pseudo.every((c) => c.arguments_origin === 'verbatim' && c.parsed_arguments !== null)).toBe(true);
    const errors = ts.flatMap((t) => t.messages.flatMap((m) => (m.role === 'tool' && m.is_error ? [m.content] : [])));
    expect(errors.every((c) => c.startsWith('Error: '))).toBe(true);
    expect(errors.length).toBeGreaterThan(0);
  });

  it('τ²-bench: rewards, tokens and durations from the simulations; raw argument strings kept verbatim', () => {
    const sims = tau2().simulations;
    const got = of('gpt-4.1_airline_default_gpt-4.1_1trials');
    const byTask = new Map(got.map((r) => [r.source_task_id, r]));
    expect(byTask.size).toBe(20);
    for (const s of sims) {
      const r = byTask.get(String(s.task_id))!;
      expect(r).toMatchObject({
        source_format: 'tau2-results',
        trace_id: s.id,
        trial: s.trial,
        source_reward: s.reward_info.reward,
        source_success: s.reward_info.reward === 1,
        model: 'gpt-4.1',
        agent: 'gpt-4.1',
        duration_ms: Math.round(s.duration * 1000),
        valid: true,
      });
      const tokens = s.messages
        .filter((m) => m.role === 'assistant' && m.usage)
        .reduce((n, m) => n + m.usage!.prompt_tokens + m.usage!.completion_tokens, 0);
      expect(r.tokens).toBe(tokens);
      const t = trajectories.get(r.id)!;
      expect(t.messages[0]).toMatchObject({ role: 'system' });
      expect(t.messages[0]!.content).toMatch(
        /^<instructions>\n[\s\S]*<\/instructions>\n<policy>\n# Airline Agent Policy/,
      );
      expect(t.messages.length).toBe(s.messages.length + 1);
      const raw = s.messages.flatMap((m) => m.raw_data?.message?.tool_calls ?? []);
      const calls = t.messages.flatMap((m) => (m.role === 'assistant' ? m.tool_calls : []));
      expect(calls.map((c) => c.function.arguments)).toEqual(raw.map((c) => c.function.arguments));
    }
    expect(got.filter((r) => r.source_success).length).toBe(10);
    const ts = got.map((r) => trajectories.get(r.id)!);
    const calls = ts.flatMap((t) => t.messages.flatMap((m) => (m.role === 'assistant' ? m.tool_calls : [])));
    expect(calls).toHaveLength(148);
    const parallel = ts.flatMap((t) => t.messages.filter((m) => m.role === 'assistant' && m.tool_calls.length > 1));
    expect(parallel).toHaveLength(17);
    expect(ts.flatMap((t) => t.messages.filter((m) => m.role === 'tool' && m.is_error))).toHaveLength(1);
  });

  it('OpenAI fine-tuning rows: unscored, task ids derived, missing content and tool names filled', () => {
    const src = sft();
    const got = of('train_sft-v1-small');
    expect(got).toHaveLength(37);
    for (const r of got)
      expect(r).toMatchObject({ source_format: 'openai-ft-jsonl', source_reward: null, source_success: null });
    expect(got.every((r) => /^sha256:[0-9a-f]{16}$/.test(r.task_id))).toBe(true);
    const ts = got.map((r) => trajectories.get(r.id)!);
    const calls = ts.flatMap((t) => t.messages.flatMap((m) => (m.role === 'assistant' ? m.tool_calls : [])));
    expect(calls).toHaveLength(262);
    const noContent = src.flatMap((r) => r.messages.filter((m) => m.role === 'assistant' && !('content' in m)));
    expect(noContent).toHaveLength(184);
    const nulls = ts.flatMap((t) => t.messages.filter((m) => m.role === 'assistant' && m.content === null));
    expect(nulls).toHaveLength(184);
    const both = ts.flatMap((t) =>
      t.messages.filter((m) => m.role === 'assistant' && m.content && m.tool_calls.length),
    );
    expect(both).toHaveLength(12);
    expect(ts.every((t) => t.tools.length >= 13 && t.metadata.parallel_tool_calls === true)).toBe(true);
    ts.forEach((t, i) => expect(t.messages).toHaveLength(src[i]!.messages.length));
  });

  it('imported again: every record a duplicate, nothing stored twice', async () => {
    const again = await importFiles(core, { paths: [TAU_BENCH, TAU2_RESULTS, TAU2_SFT] });
    expect(again).toMatchObject({ records: 257, stored: 0, duplicates: 257, refused: 0 });
    expect((await ok(core, 'trajectories.list', {})).total).toBe(257);
  }, 60_000);

  it('search finds message text and cuts snippets around the matched words', async () => {
    const hits = await ok(core, 'trajectories.search', { query: 'gift card balance', limit: 5 });
    expect(hits.total).toBeGreaterThan(0);
    for (const h of hits.hits) {
      expect(h.highlights.length).toBeGreaterThan(0);
      const words = h.highlights.map(([a, b]) => h.snippet.slice(a, b).toLowerCase());
      expect(words.every((w) => ['gift', 'card', 'balance'].includes(w))).toBe(true);
    }
    const phrase = await ok(core, 'trajectories.search', { query: '"gift card balance"', mode: 'fts' });
    expect(phrase.total).toBeLessThanOrEqual(hits.total);
    const none = await ok(core, 'trajectories.search', { query: 'xylophonequartz' });
    expect(none).toEqual({ hits: [], total: 0 });
    const bad = await core.dispatch('trajectories.search', { query: '"unbalanced', mode: 'fts' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});
