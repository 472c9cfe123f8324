import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/shared/contract/entities/run';
import { ok } from '../helpers/call';
import { generatedTasks } from '../helpers/generated-tasks';
import { runWorkspace, waitJob } from '../helpers/run-workspace';

/**
 * Issue 18: "two reference runs of the same tasks exported 600 rows where 1,200 were expected" — every
 * record of the first run was dropped as a duplicate ("imported later") of the second's. Two runs are
 * two sets of attempts (trajectories/attempt-set.ts), for the SFT selection and the RL rollouts alike.
 */
// Each run starts a job worker (through tsx in tests): seconds apiece on a busy machine.
describe('two reference-agent runs of the same tasks into one collection', { timeout: 180_000 }, () => {
  let t: ReturnType<typeof runWorkspace>;
  beforeAll(async () => {
    t = runWorkspace(generatedTasks(3));
    for (let i = 0; i < 2; i++) {
      const { jobId } = await ok(t.core, 'runs.start', {
        agent: { kind: 'reference' },
        trials: 2,
        concurrency: 2,
        collection: 'reference',
      });
      const job = await waitJob(t.core, jobId);
      expect(job.state, job.error ?? '').toBe('done');
      expect((job.result as RunResult).stored).toBe(6);
    }
  });
  afterAll(() => t.core.close());

  it('the SFT selection keeps both runs: 12 attempts, no duplicate', async () => {
    const { preview } = await ok(t.core, 'export.sftPreview', {
      dialect: 'trl',
      selection: { allUncurated: true },
      maxBodies: null,
    });
    expect(preview.report.rejections.duplicate).toBeUndefined();
    expect(preview.report.steps[0]).toMatchObject({ step: 'supersession_dedup', in: 12, out: 12 });
  });

  it('the RL package takes every rollout of both runs into its task groups', async () => {
    const r = await ok(t.core, 'export.rlPreview', {});
    expect(r).toMatchObject({ tasks: 3, rollouts: 12 });
  });
});
