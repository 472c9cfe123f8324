import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { fail, ok, slotInput } from '../helpers/call';
import {
  chat,
  gated,
  held,
  rateLimited,
  startScriptedOpenAI,
  type Script,
  type ScriptedServer,
} from '../helpers/scripted-openai';
import { createTestCore } from '../helpers/test-core';
import { answer, brokenWeights, SLOT } from './llm-fixtures';

const KEY = 'sk-genjob-0a1b2c3d4e5f60718293';
const ENV = 'COWORKENV_KEY_GENJOB';
/**
 * The endpoint's timeout unless a test is about timeouts: an hour (the most it may be), so it cannot fire before the
 * test's own hang guard. With a short one, a busy machine that answers late turns an answer into a timeout and a
 * retry (12 requests became 14): a test's outcome must not hang on the machine's speed.
 */
const NEVER_MS = 3_600_000;

const cores: Core[] = [];
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A workspace, an endpoint on a scripted server (its key in the environment), `slots` slots the example fits. */
async function setup(script: Script, o: { slots?: number; serverKey?: string } = {}) {
  const srv = await startScriptedOpenAI({ script, requireKey: o.serverKey ?? KEY });
  servers.push(srv);
  const { core, workspacePath } = createTestCore({ env: { [ENV]: KEY } });
  cores.push(core);
  await ok(core, 'endpoints.add', {
    name: 'genjob',
    base_url: srv.baseUrl,
    model: 'scripted-model',
    key_source: 'env',
    key_env: ENV,
    timeout_ms: NEVER_MS,
  });
  const { slots } = await ok(core, 'plan.create', {
    rows: Array.from({ length: o.slots ?? 1 }, () =>
      slotInput({
        family: 'ops',
        services: [...SLOT.services],
        category: SLOT.category,
        difficulty: 'medium',
        language: 'en',
        reference_date: SLOT.reference_date,
        scenario: 'cross_service',
        target_count: 3,
      }),
    ),
  });
  return { srv, core, workspacePath, ids: slots.map((s) => s.id) };
}
const json = (v: unknown) => JSON.stringify(v);
const wait = (core: Core, id: string) => ok(core, 'jobs.wait', { id, timeoutMs: 60_000 });

describe('generation.run with the llm generator', () => {
  it('counts each case per slot: valid, repaired, garbage discarded, 429 then success, timeout discarded', async () => {
    const { srv, core, workspacePath, ids } = await setup(
      [
        // slot A, candidate 0: a valid task first time
        chat(json(answer())),
        // candidate 1: weights sum to 0.9; the repair turn fixes them
        chat(json(brokenWeights())),
        chat(json(answer())),
        // candidate 2: not JSON, retried once, still not JSON → discarded
        chat('I cannot help with that.'),
        chat('Still no JSON, sorry.'),
        // slot B, candidate 0: rate limited, the client waits as told and succeeds
        rateLimited('0'),
        chat(json(answer())),
        // candidate 1 (a job of its own, under a 1 s timeout): never answered, twice → discarded as a timeout
        held(),
        held(),
      ],
      { slots: 2 },
    );
    const [a, b] = ids as [number, number];
    const { jobId: first } = await ok(core, 'generation.run', {
      slots: { ids: [a] },
      perSlot: 3,
      seed: 9,
      generator: 'llm',
      endpoint: 'genjob',
      concurrency: 1, // the script is a list: one request at a time keeps its order
    });
    const ja = await wait(core, first);
    const slotB = {
      slots: { ids: [b] },
      perSlot: 1,
      seed: 9,
      generator: 'llm' as const,
      endpoint: 'genjob',
      concurrency: 1,
    };
    const jb = await wait(core, (await ok(core, 'generation.run', slotB)).jobId);
    // Only held requests go out under the short timeout: it must fire, and no answer can lose a race with it.
    await ok(core, 'endpoints.update', { name: 'genjob', timeout_ms: 1000 });
    const jc = await wait(core, (await ok(core, 'generation.run', slotB)).jobId);
    expect(srv.exhausted).toBe(0);
    expect(ja).toMatchObject({ state: 'done', done: 3, total: 3 });
    expect(ja.result).toMatchObject({
      candidates: 3,
      validFirstTime: 1,
      repaired: 1,
      discarded: 1,
      stopped: null,
      perSlot: [
        {
          slotId: a,
          generated: 3,
          validFirstTime: 1,
          repaired: 1,
          discarded: 1,
          discardReasons: [{ reason: 'not_json', count: 1 }],
        },
      ],
    });
    expect(jb.result).toMatchObject({
      perSlot: [{ slotId: b, generated: 1, validFirstTime: 1, repaired: 0, discarded: 0 }],
    });
    expect(jc.result).toMatchObject({
      perSlot: [
        {
          slotId: b,
          generated: 1,
          validFirstTime: 0,
          repaired: 0,
          discarded: 1,
          discardReasons: [{ reason: 'timeout', count: 1 }],
        },
      ],
    });

    // Accepted candidates are valid tasks linked to their slot; the plan's counts agree.
    const counts = await ok(core, 'generation.slotCounts', { slotIds: [a, b] });
    expect(counts.slots.map((s) => [s.validTasks, s.generated, s.validFirstTime, s.repaired, s.discarded])).toEqual([
      [2, 3, 1, 1, 1],
      [1, 2, 1, 0, 1],
    ]);
    const repaired = await ok(core, 'tasks.get', { taskId: `llm_s${a}_9_00001` });
    expect(repaired.row).toMatchObject({ origin: 'generated', validation_status: 'valid' });
    expect(repaired.spec).toMatchObject({ slot_id: a, provenance: { generator: 'llm', endpoint: 'genjob' } });
    expect(await ok(core, 'validation.report', { taskId: `llm_s${a}_9_00001` })).toMatchObject({
      status: 'valid',
      rounds: [
        { round: 1, valid: false },
        { round: 2, valid: true },
      ],
    });
    const lineage = await ok(core, 'tasks.lineage', { taskId: `llm_s${a}_9_00001` });
    expect(lineage.rounds.map((r) => r.kind)).toEqual(['generate', 'repair']);
    expect(lineage.rounds[1]!.diff).toContain('"weight"');
    // The 429 shows as two attempts of one request.
    const limited = await ok(core, 'tasks.lineage', { taskId: `llm_s${b}_9_00000` });
    expect(limited).toMatchObject({ outcome: 'valid', rounds: [{ kind: 'generate', attempts: 2 }] });

    // Discarded candidates: the reason in words, the lineage of every request.
    const gone = await ok(core, 'generation.candidates', { slotId: a, outcome: 'discarded' });
    expect(gone.rows).toMatchObject([{ taskId: `llm_s${a}_9_00002`, failed: 'not_json', generator: 'llm' }]);
    const garbage = await ok(core, 'tasks.lineage', { taskId: `llm_s${a}_9_00002` });
    expect(garbage.rounds.map((r) => [r.kind, r.answer])).toEqual([
      ['generate', 'I cannot help with that.'],
      ['retry', 'Still no JSON, sorry.'],
    ]);
    const timedOut = await ok(core, 'tasks.lineage', { taskId: `llm_s${b}_9_00001` });
    expect(timedOut.rounds.map((r) => [r.kind, r.answer === null, /timed out|timeout/i.test(r.error ?? '')])).toEqual([
      ['generate', true, true],
      ['retry', true, true],
    ]);
    await expect(ok(core, 'tasks.get', { taskId: `llm_s${b}_9_00001` })).rejects.toThrow(/not found/);

    await core.close();
    expect(fs.readFileSync(workspacePath).toString('latin1')).not.toContain(KEY);
  });

  it('runs requests concurrently and commits in order: every candidate of 3 slots, each answered', async () => {
    // A barrier, not a stopwatch: the first four requests are answered only once all four are in flight, so a job
    // that asked one at a time never finishes (jobs.wait gives up and the state is not done).
    let open = () => {};
    const allIn = new Promise<void>((r) => void (open = r));
    const script = (_req: unknown, n: number) => {
      if (n === 3) open();
      return n < 4 ? gated(allIn, chat(json(answer()))) : chat(json(answer()));
    };
    const { srv, core, ids } = await setup(script, { slots: 3 });
    const { jobId } = await ok(core, 'generation.run', {
      slots: 'all',
      perSlot: 4,
      seed: 2,
      generator: 'llm',
      endpoint: 'genjob',
      concurrency: 4,
    });
    const job = await wait(core, jobId);
    expect(job).toMatchObject({ state: 'done', done: 12, total: 12, result: { validFirstTime: 12, discarded: 0 } });
    // One request per candidate: no retry (the timeout cannot fire, see NEVER_MS).
    expect(srv.chatRequests()).toHaveLength(12);
    const rows = (await ok(core, 'tasks.list', { limit: 50, sort: [{ field: 'task_id', dir: 'asc' }] })).rows;
    expect(rows.map((r) => r.task_id)).toEqual(
      ids.flatMap((id) => [0, 1, 2, 3].map((i) => `llm_s${id}_2_0000${i}`)).sort(),
    );
  });

  it('cancel stops a request in flight; committed candidates stay', async () => {
    const { srv, core } = await setup((_req, n) => (n === 0 ? chat(json(answer())) : held()));
    const { jobId } = await ok(core, 'generation.run', {
      perSlot: 3,
      seed: 4,
      generator: 'llm',
      endpoint: 'genjob',
      concurrency: 1,
    });
    await srv.chatsArrived(2);
    await ok(core, 'jobs.cancel', { id: jobId });
    // The second request is never answered and its timeout is an hour: only the cancel can end the job in time.
    const job = await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 });
    expect(job).toMatchObject({ state: 'cancelled', done: 1 });
    const counts = await ok(core, 'generation.slotCounts', {});
    expect(counts.slots[0]).toMatchObject({ generated: 1, validTasks: 1 });
  });

  it('a refused key stops the run and says why; a missing endpoint or key refuses to start', async () => {
    const { core } = await setup(() => chat(json(answer())), { serverKey: 'sk-someone-else-0000000000' });
    const { jobId } = await ok(core, 'generation.run', {
      perSlot: 3,
      generator: 'llm',
      endpoint: 'genjob',
      concurrency: 1,
    });
    const job = await wait(core, jobId);
    expect(job.state).toBe('done');
    expect(job.result).toMatchObject({ candidates: 1, discarded: 1, stopped: expect.stringMatching(/401|key/i) });
    expect(JSON.stringify(job)).not.toContain(KEY);

    expect(await fail(core, 'generation.run', { generator: 'llm' })).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('needs an endpoint'),
    });
    expect(await fail(core, 'generation.run', { generator: 'llm', endpoint: 'nope' })).toMatchObject({
      code: 'NOT_FOUND',
    });
    await ok(core, 'endpoints.add', {
      name: 'keyless',
      base_url: 'http://127.0.0.1:9/v1',
      model: 'm',
      key_source: 'env',
      key_env: 'COWORKENV_KEY_NOT_SET_ANYWHERE',
    });
    expect(await fail(core, 'generation.run', { generator: 'llm', endpoint: 'keyless' })).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('COWORKENV_KEY_NOT_SET_ANYWHERE'),
    });
  });
});
