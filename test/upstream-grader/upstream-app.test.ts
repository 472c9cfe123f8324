import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportClawEval } from '../../src/main/core/export/claw-eval/export-claw-eval';
import { runUpstreamGrader } from '../../src/main/core/upstream-grader/run-upstream';
import { writeTrace } from '../../src/main/core/traces';
import { fail, ok } from '../helpers/call';
import { PYTHON } from '../helpers/python';
import { handTask, planTurns, rollout } from '../helpers/rollouts';
import { createTestCore } from '../helpers/test-core';
import { tempDir } from '../helpers/temp';
import { validTask } from '../validation/valid-task';

/**
 * Issue 19 item 6 in the app: Settings → Upstream grader (checkout, Python, Check) and the upstream.grade job over
 * stored trajectories, against test/fixtures/claw-eval-checkout (a stand-in, not upstream code).
 */
const ROOT = path.join(__dirname, '../fixtures/claw-eval-checkout');
const NO_SAFETY = "'types.SimpleNamespace' object has no attribute 'safety'";
const graderPy = (id: string) => path.join(ROOT, 'tasks', id, 'grader.py');
const SKIP = PYTHON.ok ? '' : ` (skipped: ${PYTHON.why})`;

describe.skipIf(!PYTHON.ok)(`the upstream grader in the app${SKIP}`, () => {
  const t = createTestCore({ seedDemo: false });
  // No llm_judge check: the app's grade is known without a judge endpoint, so pass/fail compare.
  const checks = (validTask().checks as { id: string; kind: string; weight: number }[])
    .filter((c) => c.kind !== 'llm_judge')
    .map((c) => (c.id === 'reported' ? { ...c, weight: 0.2 } : c));
  const tasks = ['T900_stub', 'T901_crash', 'T902_hang', 'T904_no_grader'].map((id) =>
    handTask({ task_id: id, checks }),
  );
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    const out = path.join(tempDir(), 'claw');
    await exportClawEval({ tasks, outDir: out });
    await ok(t.core, 'tasks.import', { paths: [out] });
    const at = { now: () => new Date('2026-04-10T09:00:00Z') };
    type Task = (typeof tasks)[number];
    const [stub, crash, hang, none] = tasks as [Task, Task, Task, Task];
    const run = (task: Task) => writeTrace(rollout(task, planTurns(task), task.spec.reference_final_text ?? ''), at);
    const unsafe = [...planTurns(stub), [{ tool: 'gmail_send_message', args: { to: 'x@y.z' } }]];
    const bad = writeTrace(rollout(stub, unsafe, 'sent', 'r2'), at);
    for (const [name, traceJsonl] of [
      ['good', run(stub)],
      ['bad', bad],
      ['crash', run(crash)],
      ['hang', run(hang)],
      ['none', run(none)],
    ] as const)
      ids[name] = (await ok(t.core, 'trajectories.importTrace', { traceJsonl, collection: `c-${name}` })).id;
  });
  afterAll(() => t.core.close());

  const grade = async (input: { ids: number[]; stubJudge?: number; timeoutSeconds?: number }) => {
    const { jobId } = await ok(t.core, 'upstream.grade', input);
    const job = await ok(t.core, 'jobs.wait', { id: jobId, timeoutMs: 120_000 });
    expect(job.state, JSON.stringify(job.error)).toBe('done');
    return job.result as {
      graded: number;
      agreed: number;
      disagreed: number;
      appPending: number;
      failed: number;
      errors: { id: number; taskId: string; error: string }[];
      judge: string;
    };
  };
  const row = async (id: number) => (await ok(t.core, 'trajectories.get', { id })).row;

  it('Check names the exact missing piece, and which imported tasks have a grader.py', async () => {
    const none = await ok(t.core, 'upstream.settings', {});
    expect(none).toEqual({ root: null, python: 'python3', check: null, importedTasks: 4 });
    const gone = await ok(t.core, 'upstream.setSettings', { root: path.join(tempDir(), 'nope'), python: null });
    expect(gone.check).toMatchObject({
      usable: false,
      missing: expect.stringMatching(/^the folder .* does not exist/),
    });
    const noPy = await ok(t.core, 'upstream.setSettings', { root: ROOT, python: 'no-such-python3' });
    expect(noPy.check).toMatchObject({ usable: false, pythonVersion: null });
    expect(noPy.check?.missing).toBe(
      'Python: no-such-python3 was not found. Set the Python to use (a path or a command on PATH)',
    );
    const broken = tempDir();
    fs.mkdirSync(path.join(broken, 'src/claw_eval'), { recursive: true });
    fs.writeFileSync(path.join(broken, 'src/claw_eval/__init__.py'), '');
    const noImport = await ok(t.core, 'upstream.setSettings', { root: broken, python: null });
    expect(noImport.check?.missing).toMatch(/^claw_eval does not import from .*src with python3 3\.\d+\.\d+: /);
    expect(noImport.check?.missing).toMatch(/: ModuleNotFoundError: No module named 'claw_eval\.graders'$/);
    const good = await ok(t.core, 'upstream.setSettings', { root: ROOT, python: null });
    expect(good).toMatchObject({ root: ROOT, python: 'python3' });
    expect(good.check).toMatchObject({
      usable: true,
      missing: null,
      clawEvalImports: true,
      pythonVersion: expect.stringMatching(/^3\./),
      importedTasks: 4,
      withGrader: ['T900_stub', 'T901_crash', 'T902_hang'],
      withoutGrader: ['T904_no_grader'],
    });
    expect((await ok(t.core, 'upstream.settings', {})).check).toEqual(good.check);
  });

  it("a selection graded as a job: upstream beside the app's grade, agreement per task, errors with file", async () => {
    await ok(t.core, 'upstream.setSettings', { root: ROOT, python: null });
    // Stub 0: the stand-in's completion is the judge's score, so upstream fails the run the app passes.
    const first = await grade({ ids: [ids.good!, ids.bad!], stubJudge: 0 });
    expect(first).toMatchObject({ graded: 2, agreed: 1, disagreed: 1, failed: 0, errors: [], judge: 'stub:0' });
    expect(await row(ids.good!)).toMatchObject({
      passed: true,
      upstream_score: 0.2, // the stand-in's compute_task_score: 0.8 × completion + 0.2 × robustness
      upstream_passed: false,
      upstream_agrees: false,
    });
    const second = await grade({ ids: [ids.good!, ids.bad!, ids.crash!, ids.none!], stubJudge: 1 });
    expect(second).toMatchObject({ graded: 2, agreed: 2, disagreed: 0, failed: 2 });
    expect(second.errors).toEqual([
      {
        id: ids.crash,
        taskId: 'T901_crash',
        // With a judge, this grader answers the judge's result instead of DimensionScores: scoring it fails.
        error: `score (${graderPy('T901_crash')}): AttributeError: ${NO_SAFETY}`,
      },
      {
        id: ids.none,
        taskId: 'T904_no_grader',
        error: `load grader.py (${graderPy('T904_no_grader')}): no such file in the Claw-Eval checkout`,
      },
    ]);
    expect(await row(ids.good!)).toMatchObject({ upstream_score: 1, upstream_passed: true, upstream_agrees: true });
    expect(await row(ids.bad!)).toMatchObject({ passed: false, upstream_score: 0, upstream_agrees: true });
    // A failure is an error, never a 0.
    expect(await row(ids.crash!)).toMatchObject({ upstream_score: null, upstream_passed: null, upstream_agrees: null });
    const agreement = await ok(t.core, 'upstream.agreement', {});
    expect(agreement.tasks).toEqual([
      { taskId: 'T900_stub', graded: 2, agree: 2, disagree: 0, failed: 0, appPending: 0 },
      { taskId: 'T901_crash', graded: 1, agree: 0, disagree: 0, failed: 1, appPending: 0 },
      { taskId: 'T904_no_grader', graded: 1, agree: 0, disagree: 0, failed: 1, appPending: 0 },
    ]);
    // The grid filters on the same expression as the view counts.
    const agreeing = await ok(t.core, 'trajectories.ids', {
      filters: [{ field: 'upstream_agrees', operator: 'AND', conditions: [{ op: 'equals', value: 1 }] }],
      limit: 100,
    });
    expect(agreeing.ids.sort()).toEqual([ids.good, ids.bad].sort());
    // Every grading stays (history): the good trace was graded twice.
    const report = await ok(t.core, 'grading.upstreamReport', { taskId: 'T900_stub' });
    expect(report.tasks[0]).toMatchObject({ traces: 2, agreed: 2 });
  });

  it('without a judge, a grader that needs one says so', async () => {
    const r = await grade({ ids: [ids.crash!] });
    expect(r.judge).toBe('none');
    expect(r.errors[0]?.error).toMatch(/'evaluate' \(this grader needs a judge: none is set in Settings → Judge\)$/);
  });

  it('refuses to start without a checkout, or with one its last Check found unusable', async () => {
    await ok(t.core, 'upstream.setSettings', { root: null, python: null });
    expect((await fail(t.core, 'upstream.grade', { ids: [ids.good] })).message).toMatch(/no Claw-Eval checkout/);
    await ok(t.core, 'upstream.setSettings', { root: ROOT, python: 'no-such-python3' });
    expect((await fail(t.core, 'upstream.grade', { ids: [ids.good] })).message).toMatch(
      /not usable: Python: no-such-python3 was not found/,
    );
    await ok(t.core, 'upstream.setSettings', { root: ROOT, python: null });
  });

  it('an aborted signal kills grader.py: the answer is a cancellation, not a score', async () => {
    const abort = new AbortController();
    const running = runUpstreamGrader({
      root: ROOT,
      taskDir: path.join(ROOT, 'tasks/T902_hang'),
      tracePath: path.join(ROOT, 'empty.jsonl'),
      timeoutMs: 600_000,
      signal: abort.signal,
    });
    abort.abort();
    expect(await running).toMatchObject({ ok: false, stage: 'cancelled' });
  });

  it('a cancelled job stops grader.py at once and keeps nothing for that trace', async () => {
    const { jobId } = await ok(t.core, 'upstream.grade', { ids: [ids.hang!], timeoutSeconds: 600 });
    await ok(t.core, 'jobs.cancel', { id: jobId });
    const job = await ok(t.core, 'jobs.wait', { id: jobId, timeoutMs: 120_000 });
    expect(job.state).toBe('cancelled');
    expect(await row(ids.hang!)).toMatchObject({ upstream_score: null, upstream_error: null });
    expect((await ok(t.core, 'upstream.agreement', { taskId: 'T902_hang' })).tasks).toEqual([]);
  });
});
