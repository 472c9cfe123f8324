import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/shared/contract/entities/run';
import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { fail, ok } from '../helpers/call';
import { generatedTasks } from '../helpers/generated-tasks';
import { runWorkspace, waitJob } from '../helpers/run-workspace';

/**
 * runs.start with the reference agent on 20 generated tasks stored in a workspace: the job runs in
 * its worker, grades and stores each trajectory, and the perturbation rates show in the stored scores.
 */
// Each run starts a job worker (through tsx in tests): seconds apiece on a busy machine.
describe('a reference-agent run on generated tasks', { timeout: 180_000 }, () => {
  let tasks: TaskSpec[];
  let t: ReturnType<typeof runWorkspace>;
  beforeAll(() => {
    tasks = generatedTasks(20);
    t = runWorkspace(tasks);
  });
  afterAll(() => t.core.close());

  const run = async (input: Record<string, unknown>) => {
    const { jobId } = await ok(t.core, 'runs.start', { agent: { kind: 'reference' }, ...input } as never);
    const job = await waitJob(t.core, jobId);
    expect(job.state, job.error ?? '').toBe('done');
    return job.result as RunResult;
  };

  it('solves every task in every trial, labelled "reference agent", stored with its collection', async () => {
    const r = await run({ trials: 3, concurrency: 4, collection: 'clean', agent: { kind: 'reference', clean: true } });
    expect(r).toMatchObject({ planned: 60, stored: 60, skipped: 0, errors: 0, graded: 60, passed: 60, pass_rate: 1 });
    expect(r.agent).toBe('reference agent');
    expect(r.tokens).toBe(0);
    const page = await ok(t.core, 'trajectories.list', {
      filters: [{ field: 'collection', conditions: [{ op: 'equals', value: 'clean' }] }],
      limit: 100,
    } as never);
    expect(page.total).toBe(60);
    expect(new Set(page.rows.map((row) => row.agent))).toEqual(new Set(['reference agent']));
    expect(new Set(page.rows.map((row) => row.model))).toEqual(new Set(['']));
    // The stored body reads back as a Trajectory with its grade and the agent's metadata.
    const one = await ok(t.core, 'trajectories.get', { id: page.rows[0]!.id });
    expect(one.trajectory.metadata.agent).toMatchObject({ kind: 'reference', label: 'reference agent' });
    expect(one.grade).toMatchObject({ completion: 1, safety: 1 });
    const runs = await ok(t.core, 'runs.list', { kind: 'run' });
    expect(runs.rows[0]).toMatchObject({
      id: r.runId,
      kind: 'run',
      agent_kind: 'reference',
      agent_label: 'reference agent',
      model: null,
      collection: 'clean',
      state: 'done',
      planned: 60,
      stored: 60,
      trajectories: 60,
      passed: 60,
      mean_score: 1,
    });
    const report = await ok(t.core, 'runs.report', { runId: r.runId });
    expect(report.overall).toMatchObject({ tasks: 20, trials: 60, pass_at_k: 1, pass_hat_k: 1, safety: 1 });
    expect(report.overall.leaderboard).toMatchObject({ tasks: 20, all_pass: 1, any_pass: 1, avg_score: 1 });
  });

  it('the perturbation rates are reflected in the scores (same seed, same scores)', async () => {
    const half = await run({
      trials: 4,
      agent: { kind: 'reference', seed: 3, perturbations: { prohibited_call: 0.5 } },
    });
    const rep = await ok(t.core, 'runs.report', { runId: half.runId });
    // 80 episodes: about half break a prohibited rule (safety 0 → score 0, not passed).
    expect(rep.overall.safety).toBeGreaterThan(0.3);
    expect(rep.overall.safety).toBeLessThan(0.7);
    expect(half.pass_rate).toBeCloseTo(rep.overall.safety!, 6);
    const again = await run({
      trials: 4,
      agent: { kind: 'reference', seed: 3, perturbations: { prohibited_call: 0.5 } },
    });
    const rep2 = await ok(t.core, 'runs.report', { runId: again.runId });
    expect(rep2.tasks.map((x) => x.scores)).toEqual(rep.tasks.map((x) => x.scores));

    const light = await ok(t.core, 'runs.report', {
      runId: (await run({ trials: 2, agent: { kind: 'reference', perturbations: { skip_step: 0.15 } } })).runId,
    });
    const heavy = await ok(t.core, 'runs.report', {
      runId: (await run({ trials: 2, agent: { kind: 'reference', perturbations: { skip_step: 0.6 } } })).runId,
    });
    expect(light.overall.completion).toBeLessThan(1);
    expect(heavy.overall.completion).toBeLessThan(light.overall.completion!);
    expect(heavy.overall.safety).toBe(1);
  });

  it('tasks by ids and by a tasks-grid filter; refusals name what is wrong', async () => {
    const en = tasks.filter((x) => x.language === 'en').map((x) => x.task_id);
    const r = await run({
      trials: 1,
      where: { filters: [{ field: 'language', conditions: [{ op: 'equals', value: 'en' }] }] },
    });
    expect(r.planned).toBe(en.length);
    const two = await run({ tasks: en.slice(0, 2), trials: 2 });
    expect(two.planned).toBe(4);
    expect((await fail(t.core, 'runs.start', { tasks: ['nope'], agent: { kind: 'reference' } })).message).toMatch(
      /no such task: nope/,
    );
    const ep = await fail(t.core, 'runs.start', { agent: { kind: 'endpoint', endpoint: 'missing' } });
    expect(ep.message).toMatch(/no endpoint named "missing"/);
  });
});
