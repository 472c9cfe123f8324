import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import type { Trajectory } from '../../src/shared/contract/entities/trajectory';
import type { ImportResult, TrajectoryRow } from '../../src/shared/contract/trajectories.contract';
import { ok } from '../helpers/call';
import { FULL_DATA, figure } from '../helpers/shared-data';
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
  name?: string;
  error?: boolean;
  tool_calls?: { id: string; function?: { name: string } }[] | null;
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  raw_data?: { message?: { tool_calls?: { function: { arguments: string } }[] | null } } | null;
};
type Src = Record<string, unknown> & { task_id: string | number; trial: number; reward: number };
const tau = () =>
  JSON.parse(fs.readFileSync(TAU_BENCH, 'utf8')) as (Src & {
    traj: SrcMessage[];
    info: { reward_info?: unknown };
  })[];
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

/*
 * The figures asserted are formats.md's for the full corpora (../shared). On the shipped subset the same
 * quantities are counted straight from the source files, the way the reference counts them.
 */
const count = <T>(xs: T[], p: (x: T) => boolean) => xs.filter(p).length;
const callsOf = (ms: SrcMessage[]) => ms.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
const solved = (reward: number) => Math.abs(reward - 1) <= 1e-6;
/** τ-bench's end of a conversation: the user's ###STOP###, a transfer to a human, or steps ran out (no reward_info). */
const endOf = (s: ReturnType<typeof tau>[number]) => {
  const last = s.traj.at(-1)!;
  if (last.role === 'user' && last.content?.includes('###STOP###')) return 'user_stop';
  if (last.role === 'tool' && last.name === 'transfer_to_human_agents') return 'transfer';
  return s.info.reward_info === null ? 'max_steps' : null;
};
const records = () => tau().length + tau2().simulations.length + sft().length;

describe.skipIf(!hasTrajCorpus)('trajectories.import on the τ-bench / τ²-bench corpus', () => {
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
    const n = figure(257, records);
    expect(result).toMatchObject({ records: n, stored: n, duplicates: 0, refused: 0, external: n, graded: 0 });
    expect(result.issueCount).toBe(0);
    expect(result.files.map((f) => [f.format, f.collection, f.stored])).toEqual([
      ['tau-bench', 'gpt-4o-airline', figure(200, () => tau().length)],
      ['tau2', 'gpt-4.1_airline_default_gpt-4.1_1trials', figure(20, () => tau2().simulations.length)],
      ['openai-jsonl', 'train_sft-v1-small', figure(37, () => sft().length)],
    ]);
    expect(rows).toHaveLength(n);
    for (const [id, t] of trajectories) expect(pairingProblems(t), `trajectory ${id}`).toEqual([]);
  });

  it('τ-bench: rewards exactly as in the source, reused call ids made unique and results paired by turn', () => {
    const src = tau();
    const got = of('gpt-4o-airline');
    expect(got.map((r) => [r.source_task_id, r.trial, r.source_reward])).toEqual(
      src.map((s) => [String(s.task_id), s.trial, s.reward]),
    );
    expect(got.filter((r) => r.source_success).length).toBe(figure(84, () => count(src, (s) => solved(s.reward))));
    for (const r of got)
      expect(r).toMatchObject({ source_format: 'tau-bench-v1', external: true, graded: false, score: null });
    src.forEach((s, i) => expect(got[i]!.message_count).toBe(s.traj.length));
    const ts = got.map((r) => trajectories.get(r.id)!);
    const renamed = ts.filter((t) => t.messages.some((m) => m.meta?.source_ids));
    const reusing = (s: (typeof src)[number]) =>
      new Set(callsOf(s.traj).map((c) => c.id)).size < callsOf(s.traj).length;
    expect(renamed).toHaveLength(figure(49, () => count(src, reusing)));
    // Record 0 of ../shared calls get_user_details, then calculate, under one id; on the subset the first record
    // that reuses an id stands in, its calls read from the source.
    const k = figure(0, () => src.findIndex(reusing));
    const first = ts[k]!;
    const where = `tau-bench/airline/${src[k]!.task_id}/${src[k]!.trial}`;
    expect(first.trajectory_id).toBe(FULL_DATA ? 'tau-bench/airline/0/0' : where);
    const srcCalls = callsOf(src[k]!.traj);
    const id = srcCalls.find((c) => srcCalls.filter((d) => d.id === c.id).length > 1)!.id;
    const want = srcCalls.filter((c) => c.id === id).map((c, i) => [i ? `${id}#${i + 1}` : id, c.function!.name]);
    if (FULL_DATA)
      expect(want).toEqual([
        ['call_oIHazX6yQrB8hUwl4cRilFKj', 'get_user_details'],
        ['call_oIHazX6yQrB8hUwl4cRilFKj#2', 'calculate'],
      ]);
    const calls = first.messages.flatMap((m) => (m.role === 'assistant' ? m.tool_calls : []));
    const reused = calls.filter((c) => c.id === id || c.id.startsWith(`${id}#`));
    expect(reused.map((c) => [c.id, c.function.name])).toEqual(want);
    const result2 = first.messages.find((m) => m.role === 'tool' && m.tool_call_id === reused[1]!.id);
    expect(result2).toMatchObject({ name: want[1]![1] });
    const ends = ts.map((t) => t.termination);
    for (const [end, n] of [
      ['user_stop', 147],
      ['transfer', 48],
      ['max_steps', 5],
    ] as const)
      expect(
        ends.filter((x) => x === end),
        end,
      ).toHaveLength(figure(n, () => count(src, (s) => endOf(s) === end)));
    const pseudo = ts.flatMap((t) => t.messages.flatMap((m) => (m.role === 'assistant' ? m.tool_calls : [])));
    const named = (name: string) => () =>
      count(
        src.flatMap((s) => callsOf(s.traj)),
        (c) => c.function?.name === name,
      );
    expect(pseudo.filter((c) => c.function.name === 'think')).toHaveLength(figure(92, named('think')));
    expect(pseudo.filter((c) => c.function.name === 'calculate')).toHaveLength(figure(96, named('calculate')));
    expect(pseudo.every((c) => c.arguments_origin === 'verbatim' && c.parsed_arguments !== null)).toBe(true);
    const errors = ts.flatMap((t) => t.messages.flatMap((m) => (m.role === 'tool' && m.is_error ? [m.content] : [])));
    expect(errors.every((c) => c.startsWith('Error: '))).toBe(true);
    expect(errors.length).toBeGreaterThan(0);
  });

  it('τ²-bench: rewards, tokens and durations from the simulations; raw argument strings kept verbatim', () => {
    const sims = tau2().simulations;
    const got = of('gpt-4.1_airline_default_gpt-4.1_1trials');
    const byTask = new Map(got.map((r) => [r.source_task_id, r]));
    expect(byTask.size).toBe(figure(20, () => sims.length));
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
    const solvedSims = () => count(sims, (s) => solved(s.reward_info.reward));
    expect(got.filter((r) => r.source_success).length).toBe(figure(10, solvedSims));
    const ts = got.map((r) => trajectories.get(r.id)!);
    const msgs = sims.flatMap((s) => s.messages);
    const calls = ts.flatMap((t) => t.messages.flatMap((m) => (m.role === 'assistant' ? m.tool_calls : [])));
    expect(calls).toHaveLength(figure(148, () => callsOf(msgs).length));
    const parallel = ts.flatMap((t) => t.messages.filter((m) => m.role === 'assistant' && m.tool_calls.length > 1));
    expect(parallel).toHaveLength(
      figure(17, () => count(msgs, (m) => m.role === 'assistant' && callsOf([m]).length > 1)),
    );
    const errors = ts.flatMap((t) => t.messages.filter((m) => m.role === 'tool' && m.is_error));
    expect(errors).toHaveLength(figure(1, () => count(msgs, (m) => m.role === 'tool' && m.error === true)));
  });

  it('OpenAI fine-tuning rows: unscored, task ids derived, missing content and tool names filled', () => {
    const src = sft();
    const got = of('train_sft-v1-small');
    expect(got).toHaveLength(figure(37, () => src.length));
    for (const r of got)
      expect(r).toMatchObject({ source_format: 'openai-ft-jsonl', source_reward: null, source_success: null });
    expect(got.every((r) => /^sha256:[0-9a-f]{16}$/.test(r.task_id))).toBe(true);
    const ts = got.map((r) => trajectories.get(r.id)!);
    const calls = ts.flatMap((t) => t.messages.flatMap((m) => (m.role === 'assistant' ? m.tool_calls : [])));
    const msgs = src.flatMap((r) => r.messages);
    expect(calls).toHaveLength(figure(262, () => callsOf(msgs).length));
    const noContent = msgs.filter((m) => m.role === 'assistant' && !('content' in m));
    if (FULL_DATA) expect(noContent).toHaveLength(184);
    const nulls = ts.flatMap((t) => t.messages.filter((m) => m.role === 'assistant' && m.content === null));
    expect(nulls).toHaveLength(figure(184, () => count(msgs, (m) => m.role === 'assistant' && m.content == null)));
    const both = ts.flatMap((t) =>
      t.messages.filter((m) => m.role === 'assistant' && m.content && m.tool_calls.length),
    );
    expect(both).toHaveLength(
      figure(12, () => count(msgs, (m) => m.role === 'assistant' && !!m.content && callsOf([m]).length > 0)),
    );
    expect(ts.every((t) => t.tools.length >= 13 && t.metadata.parallel_tool_calls === true)).toBe(true);
    ts.forEach((t, i) => expect(t.messages).toHaveLength(src[i]!.messages.length));
  });

  it('imported again: every record a duplicate, nothing stored twice', async () => {
    const again = await importFiles(core, { paths: [TAU_BENCH, TAU2_RESULTS, TAU2_SFT] });
    const n = figure(257, records);
    expect(again).toMatchObject({ records: n, stored: 0, duplicates: n, refused: 0 });
    expect((await ok(core, 'trajectories.list', {})).total).toBe(n);
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
