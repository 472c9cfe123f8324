import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunReport, RunResult } from '../../src/shared/contract/entities/run';
import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { ok } from '../helpers/call';
import { generatedTasks } from '../helpers/generated-tasks';
import { planModel } from '../helpers/plan-model';
import { runWorkspace, waitJob } from '../helpers/run-workspace';
import {
  chat,
  held,
  rateLimited,
  type RecordedRequest,
  type ScriptedServer,
  startScriptedOpenAI,
  type Step,
} from '../helpers/scripted-openai';
import { REPO_ROOT } from '../helpers/test-core';

const BUILT_CLI = path.join(REPO_ROOT, 'out/main/cli.js');
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/**
 * A scripted "teacher" over 10 generated tasks: it solves each task by its reference plan (multi-turn
 * tasks open with a question to the simulated user), and the server misbehaves on purpose — one
 * 429 (then success), a malformed tool call on task 3 and an unknown tool on task 4 in every trial
 * (the model's errors, graded, never a crash). Episodes begun after the first `stall.after` are never
 * answered: a run stalls there, whatever the machine's speed, so a test can kill it midway.
 */
function teacher(tasks: TaskSpec[]) {
  const byPrompt = new Map(tasks.map((t) => [t.prompt.text, t]));
  const fired = { rateLimited: 0 };
  const stall = { after: Number.POSITIVE_INFINITY, begun: 0 };
  const models = new Map(
    tasks.map((t, i) => {
      const first = t.reference_plan![0]!;
      const override =
        i === 3
          ? { 0: [{ name: first.tool, arguments: '{"broken": ' }] }
          : i === 4
            ? { 0: [{ name: 'no_such_tool', arguments: {} }] }
            : undefined;
      const ask = t.user_agent?.enabled ? 'Before I start: is there anything I should know?' : undefined;
      return [t.task_id, planModel(t, { ...(ask ? { ask } : {}), ...(override ? { override } : {}) })];
    }),
  );
  const script = (req: RecordedRequest): Step => {
    const spec = byPrompt.get(String(req.body?.messages[1]?.content));
    if (!spec) return { type: 'error', status: 400, message: 'unknown task prompt' };
    const turn = req.body!.messages.filter((m) => m.role === 'assistant').length;
    const answer = models.get(spec.task_id)!(req);
    if (turn === 0 && ++stall.begun > stall.after) return held(); // an episode's first request
    if (spec === tasks[1] && turn === 1 && !fired.rateLimited) return (fired.rateLimited++, rateLimited('0'));
    return answer;
  };
  return { script, fired, stall };
}

async function setup() {
  const tasks = generatedTasks(10);
  const t = teacher(tasks);
  const srv = await startScriptedOpenAI({ script: t.script });
  servers.push(srv);
  const w = runWorkspace(tasks);
  await ok(w.core, 'endpoints.add', {
    name: 'teacher',
    base_url: srv.baseUrl,
    model: 'scripted-teacher',
    key_source: 'none',
    // An hour: it cannot fire before the test's hang guard. A short one turned late answers on a busy machine
    // into timeouts and retries the test did not plan (the timeout case has a run of its own below).
    timeout_ms: 3_600_000,
  });
  return { tasks, srv, ...t, ...w };
}

describe('a run against a scripted OpenAI-compatible server', { timeout: 180_000 }, () => {
  it('10 tasks × 3 trials → 30 graded via a 429, a malformed call, an unknown tool; a timeout is retried', async () => {
    const { core, tasks, srv, fired } = await setup();
    const { jobId } = await ok(core, 'runs.start', {
      agent: { kind: 'endpoint', endpoint: 'teacher' },
      trials: 3,
      concurrency: 3,
      collection: 'teacher-run',
    });
    const job = await waitJob(core, jobId);
    expect(job.state, job.error ?? '').toBe('done');
    const r = job.result as RunResult;
    expect(r).toMatchObject({ planned: 30, stored: 30, errors: 0, graded: 30, agent: 'teacher (scripted-teacher)' });
    expect(fired).toEqual({ rateLimited: 1 });
    expect(r.tokens).toBeGreaterThan(0);

    const rows = (await ok(core, 'trajectories.list', { limit: 100 })).rows;
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((x) => `${x.task_id}/${x.trial}`)).size).toBe(30);
    const get = async (taskId: string) => {
      const ids = rows.filter((x) => x.task_id === taskId).map((x) => x.id);
      return Promise.all(ids.map((id) => ok(core, 'trajectories.get', { id })));
    };
    // The 429 was retried inside one trajectory: its assistant turn keeps the attempts.
    const retried = (await get(tasks[1]!.task_id)).filter((x) => (x.trajectory.metadata.retries as number) > 0);
    expect(retried).toHaveLength(1);
    expect(retried[0]!.grade!.passed).toBe(true);
    // The malformed call: recorded as the model's error, dispatched with {} as Claw-Eval does, still graded.
    const firstCall = (x: Awaited<ReturnType<typeof get>>[number]) =>
      x.trajectory.messages.find((m) => m.role === 'assistant' && m.tool_calls.length)!;
    for (const x of await get(tasks[3]!.task_id)) {
      const a = firstCall(x);
      expect(a.role === 'assistant' && a.meta?.model_errors).toEqual([
        expect.objectContaining({ kind: 'invalid_arguments' }),
      ]);
      expect(x.trajectory.metadata.model_errors).toBe(1);
      expect(x.row.graded).toBe(true);
    }
    for (const x of await get(tasks[4]!.task_id))
      expect(firstCall(x)).toMatchObject({
        role: 'assistant',
        meta: { model_errors: [{ kind: 'unknown_tool', tool: 'no_such_tool' }] },
      });
    // Every task solved by its plan: every trajectory of the tasks without injected calls passes.
    const clean = rows.filter((x) => x.task_id !== tasks[3]!.task_id && x.task_id !== tasks[4]!.task_id);
    expect(clean.every((x) => x.passed)).toBe(true);
    // No key, no URL credentials in what the run stored.
    expect(srv.chatRequests().every((q) => q.headers.authorization === undefined)).toBe(true);
    const runs = await ok(core, 'runs.list', { kind: 'run' });
    expect(runs.rows[0]).toMatchObject({ agent_kind: 'model', endpoint_name: 'teacher', model: 'scripted-teacher' });

    // A timeout, in a run of its own under a 1 s timeout: the first request is never answered (the timeout must fire),
    // the run retries it, and the answer ends the episode. Should a busy machine answer a retry late, it is retried
    // again: the first attempt's timeout is what this checks.
    const slow = await startScriptedOpenAI({ script: (_req, n) => (n === 0 ? held() : chat('I cannot do this.')) });
    servers.push(slow);
    await ok(core, 'endpoints.update', { name: 'teacher', base_url: slow.baseUrl, timeout_ms: 1000 });
    const one = tasks.find((x) => !x.user_agent?.enabled)!;
    const started = await ok(core, 'runs.start', {
      agent: { kind: 'endpoint', endpoint: 'teacher' },
      tasks: [one.task_id],
      trials: 1,
      collection: 'timeout-run',
      maxAttempts: 20,
    });
    const timedOut = await waitJob(core, started.jobId);
    expect(timedOut.result).toMatchObject({ planned: 1, stored: 1, errors: 0 });
    const id = (await ok(core, 'trajectories.list', { limit: 100 })).rows.find((x) => x.collection === 'timeout-run')!;
    const x = await ok(core, 'trajectories.get', { id: id.id });
    expect(x.trajectory.metadata.retries).toBeGreaterThanOrEqual(1);
    const first = x.trajectory.messages.find((m) => m.role === 'assistant')!;
    const attempts = first.meta?.attempts as { status: number | null; error: string | null }[];
    expect(attempts[0]).toMatchObject({ status: null, error: expect.stringMatching(/no answer within 1 s/) });
    expect(attempts.at(-1)).toMatchObject({ status: 200 });
    await core.close();
  });

  it.skipIf(!fs.existsSync(BUILT_CLI))(
    'coworkenv run, killed with SIGKILL midway, resumes: 30 graded trajectories, no pair twice',
    async () => {
      const { core, workspacePath: ws, stall } = await setup();
      await core.close();
      const cli = (args: string[]) =>
        spawn(process.execPath, [path.join(REPO_ROOT, 'bin/coworkenv.js'), '--workspace', ws, ...args], {
          cwd: REPO_ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      const count = () => {
        const db = new Database(ws, { readonly: true });
        try {
          return (db.prepare('SELECT count(*) AS n FROM trajectories').get() as { n: number }).n;
        } finally {
          db.close();
        }
      };
      // The 8th and 9th episodes are never answered: both lanes stall after 7 pairs, whatever the machine's speed.
      // The run is killed once its progress line says 7 are stored: no poll, no deadline.
      stall.after = 7;
      const first = cli([
        'run',
        '--tasks',
        'all',
        '--agent',
        'endpoint:teacher',
        '--trials',
        '3',
        '--concurrency',
        '2',
      ]);
      const exited = new Promise<number | null>((resolve) => first.on('exit', (code) => resolve(code)));
      let progress = '';
      await new Promise<void>((resolve) =>
        first.stderr!.on('data', (d: Buffer) => {
          progress += d;
          const done = [...progress.matchAll(/\((\d+)\/30\)/g)].map((m) => Number(m[1]));
          if (done.some((n) => n >= 7)) resolve();
        }),
      );
      first.kill('SIGKILL');
      await exited;
      const before = count();
      expect(before).toBe(7);
      stall.after = Number.POSITIVE_INFINITY;

      const resumed = cli(['--json', 'run', '--resume', '1']);
      let out = '';
      let err = '';
      resumed.stdout!.on('data', (d: Buffer) => void (out += d));
      resumed.stderr!.on('data', (d: Buffer) => void (err += d));
      const code = await new Promise<number | null>((resolve) => resumed.on('exit', resolve));
      expect(code, err).toBe(0);
      const r = JSON.parse(out.trim()) as { ok: true; data: RunResult };
      expect(r.data).toMatchObject({ runId: 1, planned: 30, stored: 30, graded: 30, errors: 0, skipped: before });
      expect(err).toMatch(/resuming: \d+ of 30 trajectories already stored/);
      expect(err).toMatch(/30 of 30 trajectories; pass rate/);
      const db = new Database(ws, { readonly: true });
      try {
        const twice = db
          .prepare('SELECT count(*) AS n FROM (SELECT 1 FROM trajectories GROUP BY task_id, trial HAVING count(*) > 1)')
          .get() as { n: number };
        expect(twice.n).toBe(0);
        expect((db.prepare('SELECT count(*) AS n FROM trajectories WHERE graded = 1').get() as { n: number }).n).toBe(
          30,
        );
        expect((db.prepare('SELECT count(*) AS n FROM trajectory_bodies').get() as { n: number }).n).toBe(30);
      } finally {
        db.close();
      }

      const rep = cli(['--json', 'report', '--run', '1']);
      let text = '';
      rep.stdout!.on('data', (d: Buffer) => void (text += d));
      expect(await new Promise((resolve) => rep.on('exit', resolve))).toBe(0);
      const report = (JSON.parse(text) as { data: RunReport }).data;
      expect(report.k).toBe(3);
      expect(report.tasks).toHaveLength(10);
      expect(report.tasks.every((t) => t.trials === 3 && 'pass_at_k' in t && 'pass_hat_k' in t)).toBe(true);
      expect(report.overall.pass_at_k).toBeGreaterThanOrEqual(0.8);
    },
    180_000,
  );
});
