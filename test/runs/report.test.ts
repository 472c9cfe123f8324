import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, writeHandle } from '../../src/main/core/db/sqlite';
import { passAtK, passHatKAll, passHatKPlugin } from '../../src/main/core/runs/metrics';
import type { PreparedRow } from '../../src/main/core/trajectories/import/prepare';
import { collectionsWriter } from '../../src/main/core/trajectories/collections.repo';
import { trajectoriesWriter } from '../../src/main/core/trajectories/trajectories-writer.repo';
import type { RunReport } from '../../src/shared/contract/entities/run';
import type { GradeResult } from '../../src/shared/contract/entities/checks';
import { fail, ok } from '../helpers/call';
import { generatedTasks } from '../helpers/generated-tasks';
import { runWorkspace } from '../helpers/run-workspace';
import { FIXED_NOW } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

/**
 * Report figures against hand computation. Five tasks with chosen scores (k = 3, pass at ≥ 0.75):
 *   A [1, 0.8, 0.5]        n 3, c 2   pass@3 1     pass^3 0   (c/n)^3 8/27   padded mean 0.7667
 *   B [0.9]                n 1, c 1   padded to 3: pass@3 1 (c < k), pass^3 0, (1/3)^3; padded mean 0.3
 *   C [0.75, 0.75, 0.75]   n 3, c 3   pass@3 1     pass^3 1   (0.75 passes: inclusive)
 *   D [1, 0, 0, 1, 0]      n 5, c 2   pass@3 = 1 − C(3,3)/C(5,3) = 0.9, pass^3 0; leaderboard: first 3 → 1/3
 *   E [0.2, 0.3, 0.1] + one errored trial (not counted)   c 0: all 0
 */
const SCORES: Record<string, number[]> = {
  A: [1, 0.8, 0.5],
  B: [0.9],
  C: [0.75, 0.75, 0.75],
  D: [1, 0, 0, 1, 0],
  E: [0.2, 0.3, 0.1],
};

describe('runs.report and coworkenv report', () => {
  let t: ReturnType<typeof runWorkspace>;
  let ids: Record<string, string>;
  let row: (task: string, trial: number, score: number | null) => PreparedRow;
  beforeAll(() => {
    const tasks = generatedTasks(5);
    ids = Object.fromEntries(Object.keys(SCORES).map((k, i) => [k, tasks[i]!.task_id]));
    t = runWorkspace(tasks);
    const db = openDb(t.workspacePath);
    const now = FIXED_NOW.toISOString();
    row = (task: string, trial: number, score: number | null): PreparedRow => ({
      taskId: task,
      traceId: `${task}/${trial}`,
      contentHash: `${task}/${trial}/${score}`,
      model: 'm',
      agent: 'm',
      source: 'import',
      sourceFormat: 'messages-jsonl',
      sourceTaskId: task,
      taskSource: null,
      sourceReward: null,
      sourceCompletion: null,
      sourceSuccess: null,
      runId: null,
      trial,
      collection: 'hand',
      external: false,
      valid: score !== null,
      counts: { messages: 2, toolCalls: 0, chars: 10 },
      tokens: null,
      durationMs: null,
      error: score === null ? 'infra_error: 503' : null,
      grade:
        score === null
          ? null
          : ({
              completion: score,
              safety: score > 0 ? 1 : 0,
              robustness: 1,
              score,
              passed: score >= 0.75,
              checksOrigin: 'authored',
            } as GradeResult),
      raw: Buffer.from('{}'),
      contextId: null,
      file: null,
      line: null,
      trajectoryJson: null,
      searchText: '',
      warnings: [],
    });
    db.transaction(() => {
      const w = writeHandle(db);
      collectionsWriter(w).ensureCollection('hand', [], now);
      for (const [k, scores] of Object.entries(SCORES))
        scores.forEach((s, trial) => trajectoriesWriter(w).insert(row(ids[k]!, trial, s), now));
      trajectoriesWriter(w).insert(row(ids.E!, 3, null), now);
    })();
    db.close();
  });
  afterAll(() => t.core.close());

  it('per task: mean, Pass@k (unbiased, with c < k and padding), Pass^k, completion, safety', async () => {
    const r = await ok(t.core, 'runs.report', { collection: 'hand', k: 3 });
    const task = (k: string) => r.tasks.find((x) => x.task_id === ids[k])!;
    expect(r.k).toBe(3);
    expect(r.basis).toEqual({ graded: 15, source_reward: 0, none: 1, judge_pending: 0 });
    expect(task('A')).toMatchObject({ trials: 3, passed: 2, padded: 0, pass_at_k: 1, pass_hat_k: 0 });
    expect(task('A').pass_hat_k_plugin).toBeCloseTo(8 / 27, 12);
    expect(task('A').mean_score).toBeCloseTo(2.3 / 3, 12);
    expect(task('B')).toMatchObject({ trials: 1, passed: 1, padded: 2, pass_at_k: 1, pass_hat_k: 0, mean_score: 0.9 });
    expect(task('B').pass_hat_k_plugin).toBeCloseTo(1 / 27, 12);
    expect(task('C')).toMatchObject({ passed: 3, pass_at_k: 1, pass_hat_k: 1, pass_hat_k_plugin: 1 });
    expect(task('D')).toMatchObject({ trials: 5, passed: 2, padded: 0, pass_hat_k: 0, mean_score: 0.4 });
    expect(task('D').pass_at_k).toBeCloseTo(0.9, 12);
    expect(task('D').pass_hat_k_plugin).toBeCloseTo(0.064, 12);
    expect(task('D').safety).toBeCloseTo(0.4, 12);
    expect(task('E')).toMatchObject({ trials: 3, errored: 1, passed: 0, pass_at_k: 0, pass_hat_k: 0 });
    expect(task('E').completion).toBeCloseTo(0.2, 12);

    expect(r.overall.pass_at_k).toBeCloseTo((1 + 1 + 1 + 0.9 + 0) / 5, 12);
    expect(r.overall.pass_hat_k).toBeCloseTo(1 / 5, 12);
    expect(r.overall).toMatchObject({ tasks: 5, trials: 15, errored: 1 });
    // Claw-Eval's leaderboard: trials padded with 0 to 3 (B), only the first 3 counted (D).
    const lb = r.overall.leaderboard;
    expect(lb.avg_score).toBeCloseTo((2.3 / 3 + 0.3 + 0.75 + 1 / 3 + 0.2) / 5, 12);
    expect(lb).toMatchObject({ n_avg_pass: 2, n_any_pass: 4, n_all_pass: 1, avg_pass: 0.4, any_pass: 0.8 });
    expect(lb.all_pass).toBe(0.2);
    // Histogram bins: 16 scores (the errored trial has none), the last bin closed at 1.
    const bins = r.histograms.trajectory_scores;
    expect(bins).toHaveLength(10);
    expect(bins.reduce((s, b) => s + b.count, 0)).toBe(15);
    expect(bins[0]!.count).toBe(3); // 0, 0, 0
    expect(bins[7]!.count).toBe(3); // 0.75 × 3
    expect(bins[9]!.count).toBe(4); // 0.9, 1, 1, 1
  });

  it('groups by split and category are the same figures over their tasks; k = 2', async () => {
    const r = await ok(t.core, 'runs.report', { collection: 'hand', k: 3 });
    for (const g of r.groups) {
      const members = r.tasks.filter((x) => x[g.by] === g.value);
      expect(g.tasks).toBe(members.length);
      expect(g.pass_at_k).toBeCloseTo(members.reduce((s, x) => s + x.pass_at_k!, 0) / members.length, 12);
    }
    expect(r.groups.filter((g) => g.by === 'split').reduce((s, g) => s + g.tasks, 0)).toBe(5);
    const two = await ok(t.core, 'runs.report', { collection: 'hand', k: 2 });
    const d = two.tasks.find((x) => x.task_id === ids.D)!;
    expect(d.pass_at_k).toBeCloseTo(1 - 3 / 10, 12);
    expect(d.pass_hat_k).toBeCloseTo(1 / 10, 12);
    const a = two.tasks.find((x) => x.task_id === ids.A)!;
    expect(a.pass_hat_k).toBeCloseTo(1 / 3, 12);
    // The estimators themselves, against the closed forms.
    expect(passAtK(10, 3, 4)).toBeCloseTo(1 - 35 / 210, 12);
    expect(passHatKAll(10, 3, 2)).toBeCloseTo(3 / 45, 12);
    expect(passHatKPlugin(4, 2, 3)).toBe(0.125);
    expect(passAtK(2, 2, 3)).toBe(0);
  });

  it('coworkenv report --collection --json: pass_at_k and pass_hat_k per task and overall; text too', async () => {
    const json = await runCliCaptured(['--workspace', t.workspacePath, '--json', 'report', '--collection', 'hand']);
    expect(json.code, json.stderr).toBe(0);
    const r = (JSON.parse(json.stdout) as { data: RunReport }).data;
    expect(r.k).toBe(5); // default for a collection: the most trials of a task
    expect(r.tasks.every((x) => typeof x.pass_at_k === 'number' && typeof x.pass_hat_k === 'number')).toBe(true);
    expect(typeof r.overall.pass_at_k).toBe('number');
    const text = await runCliCaptured(['--workspace', t.workspacePath, 'report', '--collection', 'hand', '--k', '3']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/collection hand — k = 3/);
    expect(text.stdout).toMatch(/overall\s+5 tasks\s+pass@3 0\.7800\s+pass\^3 0\.2000/);
    expect(text.stdout).toMatch(/AllPass 0\.2000/);
    const none = await runCliCaptured(['--workspace', t.workspacePath, 'report', '--collection', 'nope']);
    expect(none.code).toBe(1);
    expect((await fail(t.core, 'runs.report', { runId: 1, collection: 'hand' })).message).toMatch(/exactly one/);
  });

  it('a trial whose score waits for an LLM judge is left out of every figure and counted apart', async () => {
    const before = await ok(t.core, 'runs.report', { collection: 'hand', k: 3 });
    const db = openDb(t.workspacePath);
    db.transaction(() => {
      const w = writeHandle(db);
      // The app's grade of this trial is a lower bound until a judge answers (migration 0018: NULL, app_pending).
      trajectoriesWriter(w).insert({ ...row(ids.C!, 3, 0.2), contentHash: 'pending' }, FIXED_NOW.toISOString());
      w.prepare(
        'UPDATE trajectories SET score = NULL, completion = NULL, passed = NULL, app_pending = 1 ' +
          'WHERE content_hash = ?',
      ).run('pending');
    })();
    db.close();
    const r = await ok(t.core, 'runs.report', { collection: 'hand', k: 3 });
    expect(r.basis).toEqual({ ...before.basis, judge_pending: 1 });
    // Not a failure (C keeps pass^3 = 1), not an error, not a score in the histogram.
    expect(r.tasks.find((x) => x.task_id === ids.C)).toMatchObject({ trials: 3, errored: 0, pass_hat_k: 1 });
    expect(r.overall).toEqual(before.overall);
    expect(r.histograms).toEqual(before.histograms);
    const text = await runCliCaptured(['--workspace', t.workspacePath, 'report', '--collection', 'hand', '--k', '3']);
    expect(text.stdout).toMatch(/1 waiting for an LLM judge \(left out/);
  });
});
