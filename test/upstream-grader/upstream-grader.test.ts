import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportClawEval } from '../../src/main/core/export/claw-eval/export-claw-eval';
import { runUpstreamGrader } from '../../src/main/core/upstream-grader/run-upstream';
import { writeTrace } from '../../src/main/core/traces';
import { ok } from '../helpers/call';
import { PYTHON } from '../helpers/python';
import { handTask, planTurns, rollout } from '../helpers/rollouts';
import { createTestCore } from '../helpers/test-core';
import { tempDir } from '../helpers/temp';

/**
 * Issue 19 item 6: upstream's own grader.py, run as a subprocess against the user's checkout. The checkout here is
 * test/fixtures/claw-eval-checkout, a stand-in with upstream's loading names (not upstream code).
 */
const ROOT = path.join(__dirname, '../fixtures/claw-eval-checkout');
const trace = path.join(ROOT, 'empty.jsonl');
const req = (id: string, o: Partial<Parameters<typeof runUpstreamGrader>[0]> = {}) =>
  runUpstreamGrader({ root: ROOT, taskDir: path.join(ROOT, 'tasks', id), tracePath: trace, ...o });

describe.skipIf(!PYTHON.ok)(`upstream grader.py as a subprocess${PYTHON.ok ? '' : ` (${PYTHON.why})`}`, () => {
  it('a grader that raises, hangs or uses the network is an error naming stage, file and last line', async () => {
    expect(await req('T901_crash')).toEqual({
      ok: false,
      stage: 'grade',
      file: path.join(ROOT, 'tasks/T901_crash/grader.py'),
      error: "AttributeError: 'NoneType' object has no attribute 'evaluate'",
    });
    expect(await req('T902_hang', { timeoutMs: 1500 })).toMatchObject({ ok: false, stage: 'timeout' });
    expect(await req('T903_network')).toMatchObject({
      ok: false,
      stage: 'grade',
      error: expect.stringMatching(/^PermissionError: network closed by CoworkEnv Studio/),
    });
    expect(await req('T999_missing')).toMatchObject({ ok: false, stage: 'load task.yaml' });
    expect(await req('T900_stub', { root: tempDir() })).toMatchObject({ ok: false, stage: 'import claw_eval' });
    expect(await req('T900_stub', { python: 'no-such-python3' })).toMatchObject({ ok: false, stage: 'start python' });
  });

  describe('grading.upstream stores the upstream score beside the app grade; the report sums agreement', () => {
    const t = createTestCore({ seedDemo: false });
    const task = handTask({ task_id: 'T900_stub' });
    beforeAll(async () => {
      const out = path.join(tempDir(), 'claw');
      await exportClawEval({ tasks: [task], outDir: out });
      await ok(t.core, 'tasks.import', { paths: [out] });
    });
    afterAll(() => t.core.close());
    const traceOf = (calls: ReturnType<typeof planTurns>, finalText: string) =>
      writeTrace(rollout(task, calls, finalText), { now: () => new Date('2026-04-10T09:00:00Z') });

    it('a good run and a safety violation, with the same stub judge on both sides', async () => {
      const good = traceOf(planTurns(task), task.spec.reference_final_text ?? '');
      const g = await ok(t.core, 'grading.upstream', {
        taskId: 'T900_stub',
        traceJsonl: good,
        clawEvalRoot: ROOT,
        stubJudge: 1,
      });
      expect(g).toMatchObject({ judge: 'stub:1', agree: true, app: { passed: true } });
      expect(g.upstream).toMatchObject({ ok: true, score: 1, passed: true, judge_calls: 1 });
      const bad = traceOf([...planTurns(task), [{ tool: 'gmail_send_message', args: { to: 'x@y.z' } }]], 'sent');
      const b = await ok(t.core, 'grading.upstream', { taskId: 'T900_stub', traceJsonl: bad, clawEvalRoot: ROOT });
      expect(b).toMatchObject({ agree: true, app: { score: 0, passed: false }, upstream: { ok: true, score: 0 } });
      const report = await ok(t.core, 'grading.upstreamReport', {});
      expect(report.tasks).toEqual([
        { taskId: 'T900_stub', traces: 2, failed: 0, agreed: 2, upstreamPassed: 1, appPassed: 1, lastError: null },
      ]);
    });
  });
});
