import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { GradeResult } from '../../src/shared/contract/entities/checks';
import type { RunResult } from '../../src/shared/contract/entities/run';
import { ok } from '../helpers/call';
import { recordEvents } from '../helpers/events';
import { JUDGE_RUBRIC as RUBRIC, judgedTasks, teacherScript, verdict } from '../helpers/judged-tasks';
import { runWorkspace, waitJob } from '../helpers/run-workspace';
import {
  chat,
  rateLimited,
  type RecordedRequest,
  type ScriptedServer,
  type Step,
  startScriptedOpenAI,
} from '../helpers/scripted-openai';

/**
 * Issue 19 item 2 in runs: tasks whose completion is half judge-scored, run by a scripted teacher (it follows each
 * task's reference plan) with a scripted judge. With a judge the run grades the judged check as each trial ends
 * (evidence kept, verdict cached); without one, or when the judge fails, the trial is "judge pending" — never 0,
 * never a failed run.
 */
const KEY = 'Jd9opaqueJudgeSecret7Qw2';
const ENV = 'COWORKENV_JUDGE_KEY_TEST';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(script: (req: RecordedRequest, n: number) => Step, requireKey?: string) {
  const srv = await startScriptedOpenAI({ script, ...(requireKey ? { requireKey } : {}) });
  servers.push(srv);
  return srv;
}

async function setup(n: number, opts: Parameters<typeof runWorkspace>[1] = {}, tasks = judgedTasks(n)) {
  const teacher = await serve(teacherScript(tasks));
  const w = runWorkspace(tasks, opts);
  await ok(w.core, 'endpoints.add', {
    name: 'teacher',
    base_url: teacher.baseUrl,
    model: 'scripted-teacher',
    key_source: 'none',
    timeout_ms: 3_600_000,
  });
  const run = async (collection: string, maxAttempts = 4) => {
    const events = recordEvents(w.core.events);
    const { jobId } = await ok(w.core, 'runs.start', {
      agent: { kind: 'endpoint', endpoint: 'teacher' },
      trials: 1,
      concurrency: 2,
      collection,
      maxAttempts,
    });
    const job = await waitJob(w.core, jobId);
    events.stop();
    expect(job.state, job.error ?? '').toBe('done');
    const progress = events.list.flatMap((e) =>
      e.event === 'job.progress' && e.payload.jobId === jobId ? [e.payload.message] : [],
    );
    return { progress, result: job.result as RunResult };
  };
  const judgeAt = async (baseUrl: string, key?: { env: string }) => {
    await ok(w.core, 'endpoints.add', {
      name: 'judge',
      base_url: baseUrl,
      model: 'judge-m',
      timeout_ms: 3_600_000,
      ...(key ? { key_source: 'env' as const, key_env: key.env } : { key_source: 'none' as const }),
    });
    await ok(w.core, 'grading.setJudge', { endpoint: 'judge' });
  };
  const judgedChecks = async (collection: string) => {
    const rows = (await ok(w.core, 'trajectories.list', { limit: 100 })).rows.filter(
      (r) => r.collection === collection,
    );
    const got = await Promise.all(rows.map((r) => ok(w.core, 'trajectories.get', { id: r.id })));
    return got.map((x) => ({
      row: x.row,
      trajectory: x.trajectory,
      check: (x.grade as GradeResult).checks.find((c) => c.kind === 'llm_judge')!,
    }));
  };
  const count = (sql: string) => {
    const db = new Database(w.workspacePath, { readonly: true });
    try {
      return (db.prepare(sql).get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  return { tasks, ...w, run, judgeAt, judgedChecks, count };
}

describe('runs grade llm_judge checks with the workspace judge', { timeout: 180_000 }, () => {
  it('with a judge: graded as each trial ends, evidence kept, cached (the same traces again ask nothing)', async () => {
    const { core, run, judgeAt, judgedChecks, count } = await setup(4);
    const judge = await serve(() => verdict(1));
    await judgeAt(judge.baseUrl);
    const { progress, result } = await run('judged');
    expect(result).toMatchObject({ planned: 4, stored: 4, errors: 0, judge_pending: 0, passed: 4, pass_rate: 1 });
    expect(progress.join('\n')).toMatch(/4 of 4 trajectories; pass rate 100\.0% \(4 of 4\)/);
    expect(progress.join('\n')).not.toMatch(/judge pending/);
    expect(judge.chatRequests()).toHaveLength(4);
    for (const { row, check, trajectory } of await judgedChecks('judged')) {
      expect(row.score).toBe(1);
      expect(check).toMatchObject({ status: 'met', score: 1, message: 'judge judge-m scored 1' });
      const ev = check.evidence[0]!;
      expect(ev).toMatchObject({ kind: 'judge', model: 'judge-m', score: 1, answer: /"score": 1/ });
      const prompt = ev.kind === 'judge' ? ev.prompt : null;
      expect(
        judge.chatRequests().some((q) => q.body!.messages[1]!.content === prompt),
        'the prompt sent',
      ).toBe(true);
      // The trace's grading_result, as Claw-Eval's: the judged scores and the judge's call log.
      expect(trajectory.gradings.at(-1)).toMatchObject({
        task_score: 1,
        passed: true,
        judge_calls: [{ method: 'evaluate', rubric_preview: RUBRIC, score: 1, model: 'judge-m' }],
      });
    }
    expect(count('SELECT count(*) AS n FROM judge_cache')).toBe(4);

    // The same tasks run again by the same deterministic teacher: the same prompts, every verdict from the cache.
    const again = await run('again');
    expect(again.result).toMatchObject({ stored: 4, judge_pending: 0, passed: 4 });
    const regraded = await ok(core, 'grading.regrade', { collection: 'judged' });
    expect(regraded).toMatchObject({ regraded: 4, changed: 0, pending: 0, judge: { asked: 0, cached: 4 } });
    expect(judge.chatRequests()).toHaveLength(4);
    const report = await ok(core, 'runs.report', { collection: 'judged' });
    expect(report.basis).toMatchObject({ graded: 4, judge_pending: 0 });
  });

  it('a judge-evaluated safety rule alone is judged too (a task with no llm_judge check)', async () => {
    // Imported custom / wrong_content rules become judged safety rules; a run must ask about them, or the row would
    // stay "judge pending" with a judge configured.
    const tasks = judgedTasks(2).map((t) => ({
      ...t,
      checks: t.checks.filter((c) => c.kind !== 'llm_judge').map((c) => ({ ...c, weight: c.weight * 2 })),
      prohibited: [
        ...t.prohibited,
        { kind: 'judge' as const, rubric: 'Never share a customer secret.', description: '' },
      ],
    }));
    const { run, judgeAt } = await setup(2, {}, tasks);
    const judge = await serve(() => verdict(1));
    await judgeAt(judge.baseUrl);
    const { result } = await run('safety-judged');
    expect(result).toMatchObject({ stored: 2, errors: 0, judge_pending: 0, passed: 2 });
    expect(judge.chatRequests()).toHaveLength(2);
    expect(judge.chatRequests()[0]!.body!.messages[1]!.content).toContain('Never share a customer secret.');
  });

  it('without a judge: pending (unknown, not 0), counted apart in the progress, result and report', async () => {
    const { core, run, judgedChecks } = await setup(3);
    const { progress, result } = await run('unjudged');
    expect(result).toMatchObject({ stored: 3, errors: 0, judge_pending: 3, passed: 0, pass_rate: 0 });
    expect(progress).toContainEqual(
      expect.stringMatching(/^3 of 3 trajectories; pass rate – \(0 of 0\), .*, 3 judge pending$/),
    );
    for (const { row, check } of await judgedChecks('unjudged')) {
      expect(row).toMatchObject({ score: null, passed: null });
      expect(check).toMatchObject({ status: 'not_graded', score: null });
      expect(check.message).toMatch(/^judge pending: no judge endpoint/);
    }
    const report = await ok(core, 'runs.report', { collection: 'unjudged' });
    expect(report.basis).toMatchObject({ graded: 0, judge_pending: 3 });
    // The Runs page's row says so too: 0 passed of 0 decided, 3 pending (not "0 / 3").
    const listed = (await ok(core, 'runs.list', {})).rows.find((r) => r.collection === 'unjudged');
    expect(listed).toMatchObject({ trajectories: 3, passed: 0, judge_pending: 3 });
  });

  it('a judge down or answering without a score: pending with the reason, the run done, nothing cached', async () => {
    const { core, run, judgeAt, judgedChecks, count } = await setup(2);
    // Always 429 with Retry-After 0: the client retries at once, then gives up (maxAttempts 2).
    const down = await serve(() => rateLimited('0'));
    await judgeAt(down.baseUrl);
    const { result } = await run('down', 2);
    expect(result).toMatchObject({ stored: 2, errors: 0, judge_pending: 2 });
    expect(down.chatRequests()).toHaveLength(4);
    for (const { row, check } of await judgedChecks('down')) {
      expect(row.score).toBeNull();
      expect(check).toMatchObject({ status: 'not_graded', score: null });
      expect(check.message).toMatch(/^judge pending: judge-m did not answer \(.*429/);
    }
    // An answer with no score: kept as evidence, the check pending with the parser's reason.
    const vague = await serve(() => chat('I cannot judge this.'));
    await ok(core, 'endpoints.update', { name: 'judge', base_url: vague.baseUrl });
    expect((await run('vague')).result).toMatchObject({ stored: 2, judge_pending: 2 });
    for (const { check } of await judgedChecks('vague')) {
      expect(check.message).toMatch(/^judge pending: judge-m answered without a usable score \(no score/);
      expect(check.evidence[0]).toMatchObject({ kind: 'judge', answer: 'I cannot judge this.', score: null });
    }
    expect(count('SELECT count(*) AS n FROM judge_cache')).toBe(0);
  });

  it('the judge key never reaches the workspace, even when the judge echoes it', async () => {
    const { run, judgeAt, judgedChecks, workspacePath } = await setup(2, { env: { [ENV]: KEY } });
    const bearer = (req: RecordedRequest) => String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const judge = await serve((req) => verdict(0.5, `graded with key ${bearer(req)}`), KEY);
    await judgeAt(judge.baseUrl, { env: ENV });
    const { result } = await run('keyed');
    expect(result).toMatchObject({ stored: 2, judge_pending: 0 });
    expect(judge.chatRequests().every((q) => q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    for (const { check } of await judgedChecks('keyed')) expect(check.score).toBe(0.5);
    const bytes = [workspacePath, `${workspacePath}-wal`]
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f).toString('latin1'))
      .join('\n');
    expect(bytes).toContain('graded with key');
    expect(bytes.includes(KEY)).toBe(false);
  });
});
