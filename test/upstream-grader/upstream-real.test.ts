import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTrace } from '../../src/main/core/traces';
import { ok } from '../helpers/call';
import { synthTrajectory } from '../helpers/claw-traces';
import { CLAW_ROOT } from '../helpers/goldens';
import { PYTHON } from '../helpers/python';
import { createTestCore } from '../helpers/test-core';
import { CLAW_CHECKOUT } from '../helpers/shared-data';

/** Upstream's own checkout at 9365e1a, where this machine has it (the app never ships upstream code). */
const UPSTREAM = CLAW_CHECKOUT ?? '';
const TASK = 'T002_email_triage'; // in the shipped subset, its goldens too
const why = !PYTHON.ok
  ? PYTHON.why
  : !fs.existsSync(path.join(UPSTREAM, 'tasks', TASK, 'grader.py'))
    ? 'no Claw-Eval checkout beside the repository (../claw-eval-9365e1a) or in CLAW_EVAL_ROOT'
    : null;

describe.skipIf(why !== null)(
  `a real task's grader.py from upstream's checkout${why ? ` (skipped: ${why})` : ''}`,
  () => {
    const t = createTestCore({ seedDemo: false });
    afterAll(() => t.core.close());

    it(`${TASK}: Check finds it, the job grades a recorded run with upstream's own grader.py`, async () => {
      await ok(t.core, 'tasks.import', { paths: [path.join(CLAW_ROOT, 'tasks', TASK)] });
      const traceJsonl = writeTrace(synthTrajectory(TASK), { now: () => new Date('2026-04-10T09:00:00Z') });
      const { id } = await ok(t.core, 'trajectories.importTrace', { traceJsonl });
      const settings = await ok(t.core, 'upstream.setSettings', { root: UPSTREAM, python: null });
      // Upstream's grader dependencies may be missing from this Python: then Check must say which, and we stop there.
      if (!settings.check?.usable) {
        expect(settings.check?.missing).toMatch(/^claw_eval does not import .*No module named/);
        return;
      }
      expect(settings.check.withGrader).toEqual([TASK]);
      const { jobId } = await ok(t.core, 'upstream.grade', { ids: [id], stubJudge: 1, timeoutSeconds: 120 });
      const job = await ok(t.core, 'jobs.wait', { id: jobId, timeoutMs: 300_000 });
      expect(job.state, JSON.stringify(job.error)).toBe('done');
      expect(job.result).toMatchObject({ failed: 0, errors: [], judge: 'stub:1' });
      const row = (await ok(t.core, 'trajectories.get', { id })).row;
      expect(row.upstream_error).toBeNull();
      expect(row.upstream_score).toBeGreaterThanOrEqual(0);
      expect(row.upstream_score).toBeLessThanOrEqual(1);
      expect(typeof row.upstream_passed).toBe('boolean');
    });
  },
);
