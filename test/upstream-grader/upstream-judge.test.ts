import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportClawEval } from '../../src/main/core/export/claw-eval/export-claw-eval';
import { writeTrace } from '../../src/main/core/traces';
import { ok } from '../helpers/call';
import { PYTHON } from '../helpers/python';
import { handTask, planTurns, rollout } from '../helpers/rollouts';
import { createTestCore, tempDir } from '../helpers/test-core';

/**
 * The configured judge goes through to grader.py (Settings → Judge): its model and URL on stdin, its key in the
 * child's environment only. The stand-in checkout's LLMJudge scores 1 when it was handed a key, and connects nowhere.
 */
const ROOT = path.join(__dirname, '../fixtures/claw-eval-checkout');
// A made-up value for this test: what must never be written anywhere.
const KEY = 'sk-upstream-judge-test-7f3a9c';

describe.skipIf(!PYTHON.ok)(`the judge passed through to grader.py${PYTHON.ok ? '' : ` (${PYTHON.why})`}`, () => {
  const t = createTestCore({ seedDemo: false, env: { COWORKENV_KEY_JUDGE: KEY } });
  let id = 0;
  beforeAll(async () => {
    const task = handTask({ task_id: 'T900_stub' });
    const out = path.join(tempDir(), 'claw');
    await exportClawEval({ tasks: [task], outDir: out });
    await ok(t.core, 'tasks.import', { paths: [out] });
    const traceJsonl = writeTrace(rollout(task, planTurns(task), task.spec.reference_final_text ?? ''));
    id = (await ok(t.core, 'trajectories.importTrace', { traceJsonl })).id;
    await ok(t.core, 'endpoints.add', {
      name: 'judge',
      base_url: 'http://127.0.0.1:9/v1',
      model: 'judge-m',
      key_source: 'env',
    });
    await ok(t.core, 'grading.setJudge', { endpoint: 'judge' });
    await ok(t.core, 'upstream.setSettings', { root: ROOT, python: null });
  });
  afterAll(() => t.core.close());

  const run = async (core: typeof t.core) => {
    const { jobId } = await ok(core, 'upstream.grade', { ids: [id] });
    return ok(core, 'jobs.wait', { id: jobId, timeoutMs: 120_000 });
  };

  it("grader.py's judge gets the endpoint and its key; the key is in no file of the workspace", async () => {
    const job = await run(t.core);
    expect(job.state, JSON.stringify(job.error)).toBe('done');
    expect(job.result).toMatchObject({ judge: 'endpoint:judge', failed: 0 });
    const row = (await ok(t.core, 'trajectories.get', { id })).row;
    expect(row).toMatchObject({ upstream_score: 1, upstream_passed: true });
    for (const f of fs.readdirSync(path.dirname(t.workspacePath)))
      expect(fs.readFileSync(path.join(path.dirname(t.workspacePath), f)).includes(KEY), f).toBe(false);
  });

  it('without its key the job stops before any trace, saying where the key was looked for', async () => {
    const bare = createTestCore({ workspacePath: t.workspacePath, env: {} });
    try {
      const job = await run(bare.core);
      expect(job.state).toBe('failed');
      expect(job.error).toMatch(
        /the judge \(Settings → Judge\): endpoint "judge" has no key: set .*COWORKENV_KEY_JUDGE/,
      );
    } finally {
      await bare.core.close();
    }
  });
});
