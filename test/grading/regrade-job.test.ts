import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { writeTrace } from '../../src/main/core/traces';
import type { GradeResult } from '../../src/shared/contract/entities/checks';
import { ok } from '../helpers/call';
import { synthTrajectory } from '../helpers/claw-traces';
import { CLAW_ROOT, hasGoldens } from '../helpers/goldens';
import {
  chat,
  gated,
  rateLimited,
  type ScriptedServer,
  startScriptedOpenAI,
  type Step,
} from '../helpers/scripted-openai';
import type { AnyEvent } from '../../src/shared/contract';
import { recordEvents } from '../helpers/events';
import { createTestCore } from '../helpers/test-core';

/** T019zh (shipped in test/fixtures/corpus): one llm_judge check, the rest deterministic. */
const TASK = 'T019zh_inventory_check';
const TRACES = 4;
const SECRET = 'sk-regrade-job-secret-0123456789';
const verdict = (score: number) => chat(`{"score": ${score}, "reasoning": "checked"}`);

const cores: Core[] = [];
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Imported Claw-Eval traces of TASK, each with its own final answer (so its own judge request): judge pending. */
async function workspace() {
  const made = createTestCore({ seedDemo: false });
  cores.push(made.core);
  await ok(made.core, 'tasks.import', { paths: [path.join(CLAW_ROOT, 'tasks', TASK)] });
  const ids: number[] = [];
  for (let i = 0; i < TRACES; i++) {
    const t = synthTrajectory(TASK, {
      finalText: `Inventory checked, run ${i}.`,
      keep: (tool) => tool !== 'inventory_create_order',
    });
    ids.push((await ok(made.core, 'trajectories.importTrace', { traceJsonl: writeTrace(t) })).id);
  }
  const rows = () => {
    const db = new Database(made.workspacePath, { readonly: true });
    try {
      return db.prepare('SELECT id, score, app_pending FROM trajectories ORDER BY id').all() as {
        id: number;
        score: number | null;
        app_pending: number | null;
      }[];
    } finally {
      db.close();
    }
  };
  return { ...made, ids, rows };
}

async function judgeAt(core: Core, script: (n: number) => Step, key: string | null = null) {
  const srv = await startScriptedOpenAI({ script: (_req, n) => script(n), ...(key ? { requireKey: key } : {}) });
  servers.push(srv);
  await ok(core, 'endpoints.add', {
    name: 'judge',
    base_url: srv.baseUrl,
    model: 'judge-m',
    ...(key ? { key_source: 'env' as const, key_env: 'REGRADE_JOB_TEST_KEY' } : { key_source: 'none' as const }),
  });
  await ok(core, 'grading.setJudge', { endpoint: 'judge' });
  return srv;
}

const finish = async (core: Core, jobId: string) => ok(core, 'jobs.wait', { id: jobId, timeoutMs: 120_000 });

describe.skipIf(!hasGoldens)('grading.regradeJob: re-grade with the judge as a job', { timeout: 120_000 }, () => {
  it('imported traces go from judge pending to graded; a second job asks nothing', async () => {
    const { core, ids, rows } = await workspace();
    expect(rows().every((r) => r.score === null && r.app_pending! > 0)).toBe(true);
    const srv = await judgeAt(core, () => verdict(0.9));
    const rec = recordEvents(core.events);
    const { jobId } = await ok(core, 'grading.regradeJob', { collection: 'claw-eval-traces', batchSize: 3 });
    const job = await finish(core, jobId);
    rec.stop();
    // Per batch: trajectories done, judge asked / cached / failed, still pending.
    const messages = rec.list.flatMap((e: AnyEvent) =>
      e.event === 'job.progress' && e.payload.jobId === jobId && e.payload.done > 0 ? [e.payload.message] : [],
    );
    expect(messages).toContain('3 of 4 re-graded · judge asked 3, cached 0, failed 0 · 0 still pending');
    expect(messages).toContain('4 of 4 re-graded · judge asked 4, cached 0, failed 0 · 0 still pending');
    expect(job.state).toBe('done');
    expect(job.total).toBe(TRACES);
    // One llm_judge check per trace, each trace its own request.
    const asked = srv.chatRequests().length;
    expect(asked).toBe(TRACES);
    expect(job.result).toMatchObject({
      regraded: TRACES,
      skipped: 0,
      changed: TRACES,
      pending: 0,
      judge: { endpoint: 'judge', asked, failed: 0, problems: [] },
    });
    expect(rows().every((r) => r.score !== null && r.app_pending === null)).toBe(true);
    const g = (await ok(core, 'trajectories.get', { id: ids[0]! })).grade as GradeResult;
    expect(g.checks.find((c) => c.kind === 'llm_judge')).toMatchObject({ score: 0.9 });

    // Ticked ids this time (one not graded: unknown): everything is in the cache, the endpoint hears nothing.
    const again = await ok(core, 'grading.regradeJob', { ids: [...ids, 999_999] });
    const second = await finish(core, again.jobId);
    expect(second.result).toMatchObject({
      regraded: TRACES,
      skipped: 1,
      changed: 0,
      pending: 0,
      judge: { asked: 0, cached: asked, failed: 0 },
    });
    expect(srv.chatRequests()).toHaveLength(asked);
  });

  it('cancel keeps the batches stored; the resumed job asks only what is not cached', async () => {
    const { core, rows } = await workspace();
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    // The first trajectory's request is answered (one llm_judge check each); the next waits for the gate.
    const srv = await judgeAt(core, (n) => (n < 1 ? verdict(1) : gated(gate, verdict(1))));
    const { jobId } = await ok(core, 'grading.regradeJob', { collection: 'claw-eval-traces', batchSize: 1 });
    await srv.chatsArrived(2);
    await ok(core, 'jobs.cancel', { id: jobId });
    const job = await finish(core, jobId);
    open();
    expect(job.state).toBe('cancelled');
    expect(job.done).toBe(1);
    expect(rows().map((r) => r.score !== null)).toEqual([true, false, false, false]);
    const before = srv.chatRequests().map((q) => q.body!.messages[1]!.content);

    const resumed = await ok(core, 'jobs.resume', { id: jobId });
    const done = await finish(core, resumed.jobId);
    expect(done.state).toBe('done');
    expect(rows().every((r) => r.score !== null)).toBe(true);
    // The prompts answered before the cancel were not sent again.
    const after = srv
      .chatRequests()
      .map((q) => q.body!.messages[1]!.content)
      .slice(before.length);
    expect(after).not.toContain(before[0]);
    expect(after).toHaveLength(TRACES - 1);
  });

  it('a judge down leaves the checks pending with the reason; the key never reaches the workspace', async () => {
    const { core, ids, rows, workspacePath } = await workspace();
    process.env.REGRADE_JOB_TEST_KEY = SECRET;
    try {
      const srv = await judgeAt(core, () => rateLimited('0'), SECRET);
      const { jobId } = await ok(core, 'grading.regradeJob', { ids });
      const job = await finish(core, jobId);
      expect(job.state).toBe('done');
      const r = job.result as { pending: number; judge: { failed: number; problems: { problem: string }[] } };
      expect(r.pending).toBe(TRACES);
      expect(r.judge.failed).toBeGreaterThanOrEqual(TRACES);
      expect(r.judge.problems[0]!.problem).toMatch(/429|rate limit/i);
      expect(srv.chatRequests()[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
      expect(rows().every((x) => x.score === null && x.app_pending! > 0)).toBe(true);
      const judged = ((await ok(core, 'trajectories.get', { id: ids[0]! })).grade as GradeResult).checks.find(
        (c) => c.kind === 'llm_judge',
      )!;
      expect(judged).toMatchObject({ status: 'not_graded', score: null });
      expect(judged.message).toMatch(/429|rate limit/i);
      await core.close();
      cores.length = 0;
      const raw = await import('node:fs').then((fs) => fs.readFileSync(workspacePath));
      expect(raw.includes(SECRET)).toBe(false);
    } finally {
      delete process.env.REGRADE_JOB_TEST_KEY;
    }
  });

  it('another call is answered while the job waits on the judge (no blocking)', async () => {
    const { core } = await workspace();
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const srv = await judgeAt(core, () => gated(gate, verdict(1)));
    const { jobId } = await ok(core, 'grading.regradeJob', { collection: 'claw-eval-traces' });
    await srv.chatsArrived(1);
    // The judge holds its answer: the job is mid-way, and the core still answers.
    const list = await ok(core, 'trajectories.list', { offset: 0, limit: 10 });
    expect(list.total).toBe(TRACES);
    expect((await ok(core, 'jobs.get', { id: jobId })).state).toBe('running');
    open();
    expect((await finish(core, jobId)).state).toBe('done');
  });
});
