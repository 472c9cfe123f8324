import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { openDb, writeHandle } from '../../src/main/core/db/sqlite';
import type { PreparedRow } from '../../src/main/core/trajectories/import/prepare';
import { collectionsWriter } from '../../src/main/core/trajectories/collections.repo';
import { trajectoriesWriter } from '../../src/main/core/trajectories/trajectories-writer.repo';
import type { SourceFormat } from '../../src/shared/contract/entities/trajectory';
import { ok } from '../helpers/call';
import { FULL_DATA, FULL_ONLY } from '../helpers/shared-data';
import { createTestCore, FIXED_NOW } from '../helpers/test-core';
import { importFiles, TAU_BENCH } from '../helpers/trajectory-import';
import { runCliCaptured } from '../helpers/transports';

/**
 * Each source's pass rule (issue 19, item 3). τ-bench and τ²-bench count a trial as a success when
 * `(1 - 1e-6) <= reward <= (1 + 1e-6)` (their `is_successful`), not Claw-Eval's score ≥ 0.75, and τ²-bench
 * refuses pass^k for k above a task's trial count (`pass_hat_k` raises) instead of padding with failures.
 */
const isSuccessful = (reward: number) => 1 - 1e-6 <= reward && reward <= 1 + 1e-6;
const comb = (n: number, k: number) => {
  let r = 1;
  for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1);
  return r;
};

/** τ-bench's display_metrics (run.py): num_trials = distinct trials; per task c successes; mean C(c,k)/C(n,k). */
function tauBenchPassHatK(records: { task_id: number; trial: number; reward: number }[]): Map<number, number> {
  const numTrials = new Set(records.map((r) => r.trial)).size;
  const c = new Map<number, number>();
  for (const r of records) c.set(r.task_id, (c.get(r.task_id) ?? 0) + (isSuccessful(r.reward) ? 1 : 0));
  const out = new Map<number, number>();
  for (let k = 1; k <= numTrials; k++)
    out.set(k, [...c.values()].reduce((s, x) => s + comb(x, k) / comb(numTrials, k), 0) / c.size);
  return out;
}

describe('runs.report on the τ-bench airline file: τ-bench’s own pass^k', () => {
  let core: Core;
  let workspace: string;
  const src = JSON.parse(fs.readFileSync(TAU_BENCH, 'utf8')) as { task_id: number; trial: number; reward: number }[];
  const own = tauBenchPassHatK(src);
  beforeAll(async () => {
    const t = createTestCore();
    core = t.core;
    workspace = t.workspacePath;
    await importFiles(core, { paths: [TAU_BENCH] });
  }, 120_000);
  afterAll(() => core.close());

  it('Pass^k for every k up to the trial count equals τ-bench’s computation; the rule is named', async () => {
    expect(own.size).toBe(4);
    for (const [k, want] of own) {
      const r = await ok(core, 'runs.report', { collection: 'gpt-4o-airline', k });
      expect(r.overall.pass_hat_k, `pass^${k}`).toBeCloseTo(want, 12);
      expect(r.rules).toEqual([
        expect.objectContaining({ source: 'tau-bench-v1', rule: 'reward-is-1', beyond_trials: 'refused' }),
      ]);
      expect(r.rules[0]!.description).toMatch(/within 1e-6 of 1/);
      expect(r.tasks.every((t) => t.rule === 'reward-is-1' && t.padded === 0)).toBe(true);
    }
  });

  it(`formats.md §5.4's published pass^k: 0.42, 0.2733, 0.22, 0.20${FULL_ONLY}`, async () => {
    if (!FULL_DATA) return;
    const got: (number | null)[] = [];
    for (const k of [1, 2, 3, 4])
      got.push((await ok(core, 'runs.report', { collection: 'gpt-4o-airline', k })).overall.pass_hat_k);
    [0.42, 0.2733, 0.22, 0.2].forEach((want, i) => expect(got[i]).toBeCloseTo(want, 4));
  });

  it('k beyond the trials: Pass^k refused (null, flagged), not padded with failures; the CLI says why', async () => {
    const r = await ok(core, 'runs.report', { collection: 'gpt-4o-airline', k: 5 });
    expect(r.tasks.every((t) => t.pass_hat_k === null && t.pass_at_k === null && t.padded === 0)).toBe(true);
    expect(r.tasks.every((t) => t.beyond_trials)).toBe(true);
    expect(r.overall).toMatchObject({ pass_hat_k: null, pass_at_k: null, refused: r.tasks.length });
    const cli = (...more: string[]) =>
      runCliCaptured(['--workspace', workspace, 'report', '--collection', 'gpt-4o-airline', ...more]);
    const text = await cli();
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/tau-bench-v1: success = reward within 1e-6 of 1/);
    const five = await cli('--k', '5');
    expect(five.stdout).toMatch(/pass\^5 refused/);
  });
});

describe('runs.report: the same rewards under each source’s rule', () => {
  let core: Core;
  const REWARDS = [0.8, 0.8, 1.0];
  const row = (format: SourceFormat, task: string, trial: number, reward: number): PreparedRow => ({
    taskId: task,
    traceId: `${task}/${trial}`,
    contentHash: `${format}/${task}/${trial}`,
    model: 'm',
    agent: 'm',
    source: 'import',
    sourceFormat: format,
    sourceTaskId: task,
    taskSource: null,
    sourceReward: reward,
    sourceCompletion: null,
    sourceSuccess: null,
    runId: null,
    trial,
    collection: format,
    external: true,
    valid: true,
    counts: { messages: 2, toolCalls: 0, chars: 10 },
    tokens: null,
    durationMs: null,
    error: null,
    grade: null,
    raw: Buffer.from('{}'),
    contextId: null,
    file: null,
    line: null,
    trajectoryJson: null,
    searchText: '',
    warnings: [],
  });
  beforeAll(() => {
    const t = createTestCore();
    core = t.core;
    const db = openDb(t.workspacePath);
    const now = FIXED_NOW.toISOString();
    db.transaction(() => {
      const w = writeHandle(db);
      for (const f of ['tau-bench-v1', 'claw-eval-trace', 'tau2-results'] as const) {
        collectionsWriter(w).ensureCollection(f, [], now);
        const rewards = f === 'tau2-results' ? [1, 1] : REWARDS;
        rewards.forEach((r, i) => trajectoriesWriter(w).insert(row(f, `${f}/t1`, i, r), now));
      }
    })();
    db.close();
  });
  afterAll(() => core.close());

  it('rewards [0.8, 0.8, 1.0]: one pass under τ-bench’s rule, three under Claw-Eval’s', async () => {
    const tau = await ok(core, 'runs.report', { collection: 'tau-bench-v1', k: 3 });
    expect(tau.tasks[0]).toMatchObject({ passed: 1, pass_hat_k: 0, rule: 'reward-is-1' });
    const claw = await ok(core, 'runs.report', { collection: 'claw-eval-trace', k: 3 });
    expect(claw.tasks[0]).toMatchObject({ passed: 3, pass_hat_k: 1, rule: 'score-0.75' });
    expect(claw.rules).toEqual([
      expect.objectContaining({ source: 'claw-eval-trace', rule: 'score-0.75', beyond_trials: 'padded' }),
    ]);
  });

  it('τ²-bench: k above the trials is refused; Claw-Eval pads with failures, and says so', async () => {
    const tau2 = await ok(core, 'runs.report', { collection: 'tau2-results', k: 3 });
    expect(tau2.tasks[0]).toMatchObject({ passed: 2, pass_hat_k: null, beyond_trials: true, padded: 0 });
    expect((await ok(core, 'runs.report', { collection: 'tau2-results', k: 2 })).overall.pass_hat_k).toBe(1);
    const claw = await ok(core, 'runs.report', { collection: 'claw-eval-trace', k: 4 });
    expect(claw.tasks[0]).toMatchObject({ padded: 1, beyond_trials: true, pass_hat_k: 0 });
  });
});
