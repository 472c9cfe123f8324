import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/shared/contract/entities/run';
import { runEpisode } from '../../src/main/core/agents/agent-loop';
import { DEFAULT_MIX, profileOf } from '../../src/main/core/agents/perturb-mix';
import { referenceAgent } from '../../src/main/core/agents/reference-agent';
import { scriptedUser } from '../../src/main/core/agents/scripted-user';
import { generatedTasks } from '../helpers/generated-tasks';
import { runWorkspace } from '../helpers/run-workspace';
import { runCliCaptured } from '../helpers/transports';

/**
 * Issue 18 item 11: the README's offline path (`run --tasks all --agent reference --trials 3`, then
 * curate and export) must give something to learn from — every bucket, and reward spread in RL
 * groups — while `--clean` keeps plain replays (every task solved).
 */
// Each run is a job in its worker (through tsx in tests): seconds apiece on a busy machine.
describe('the default reference run gives signal; --clean replays plainly', { timeout: 180_000 }, () => {
  const tasks = generatedTasks(20);
  const workspace = () => {
    const t = runWorkspace(tasks);
    return t.core.close().then(() => t.workspacePath);
  };
  const run = async (ws: string, ...extra: string[]) => {
    const r = await runCliCaptured([
      '--workspace',
      ws,
      '--json',
      'run',
      '--tasks',
      'all',
      '--agent',
      'reference',
      '--trials',
      '3',
      ...extra,
    ]);
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout.trim()) as { data: RunResult }).data;
  };
  const read = <T>(ws: string, sql: string) => {
    const db = new Database(ws, { readonly: true });
    try {
      return db.prepare(sql).all() as T[];
    } finally {
      db.close();
    }
  };
  let defaultWs: string;
  let cleanWs: string;
  beforeAll(async () => {
    [defaultWs, cleanWs] = await Promise.all([workspace(), workspace()]);
  });
  afterAll(() => undefined);

  it('by default: KEEP, TRIVIAL and UNSOLVABLE suggested, reward spread in at least half the groups', async () => {
    const r = await run(defaultWs);
    expect(r).toMatchObject({ planned: 60, stored: 60, errors: 0, agent: 'reference agent' });
    expect(r.pass_rate).toBeLessThan(1);
    const buckets = read<{ suggested: string; n: number }>(
      defaultWs,
      'SELECT suggested, count(*) AS n FROM curation_tasks GROUP BY suggested ORDER BY suggested',
    );
    const by = Object.fromEntries(buckets.map((b) => [b.suggested, b.n]));
    expect(Object.keys(by)).toEqual(['KEEP', 'TRIVIAL', 'UNSOLVABLE']);
    // One run: an RL group is a task's three trials. Spread: not every trial got the same reward.
    const groups = read<{ spread: number }>(
      defaultWs,
      'SELECT count(DISTINCT score) > 1 AS spread FROM trajectories GROUP BY run_id, task_id',
    );
    expect(groups.length).toBe(20);
    expect(groups.filter((g) => g.spread).length).toBeGreaterThanOrEqual(10);
  });

  it('with --clean: every trajectory passes, every task TRIVIAL, no spread', async () => {
    const r = await run(cleanWs, '--clean');
    expect(r).toMatchObject({ planned: 60, stored: 60, errors: 0, passed: 60, pass_rate: 1 });
    expect(read(cleanWs, 'SELECT DISTINCT suggested FROM curation_tasks')).toEqual([{ suggested: 'TRIVIAL' }]);
    const rates = await runCliCaptured([
      '--workspace',
      cleanWs,
      'run',
      '--tasks',
      'all',
      '--agent',
      'reference',
      '--clean',
      '--skip-step',
      '0.5',
    ]);
    expect(rates.code).not.toBe(0);
    expect(rates.stderr).toMatch(/--clean replays plainly/);
  });

  it('the mix is seeded: the same seed, the same profile and trajectory; profiles in their shares', async () => {
    const spec = tasks[1]!;
    const content = async (seed: number, trial: number) => {
      const e = await runEpisode({ spec, fixtures: [], agent: referenceAgent({ seed }), user: scriptedUser(), trial });
      return {
        calls: e.trajectory.dispatches.map((d) => [d.tool, d.args]),
        grade: e.grade,
        agent: e.trajectory.metadata.agent,
      };
    };
    for (const trial of [0, 1, 2]) expect(await content(5, trial)).toEqual(await content(5, trial));
    expect((await content(5, 0)).agent).toMatchObject({ perturbation_profile: profileOf(spec.task_id, 5).profile });
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const p = profileOf(`task_${i}`, 0).profile;
      counts.set(p, (counts.get(p) ?? 0) + 1);
    }
    for (const m of DEFAULT_MIX) expect(Math.abs(counts.get(m.profile)! / 2000 - m.share)).toBeLessThan(0.04);
  });
});
