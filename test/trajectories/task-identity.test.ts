import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import type { SftManifest } from '../../src/shared/contract/entities/export';
import { ok } from '../helpers/call';
import { writeTau2, writeTauBench } from '../helpers/tau-records';
import { createTestCore, tempDir } from '../helpers/test-core';
import { FULL_DATA } from '../helpers/shared-data';
import { allRows, hasTrajCorpus, importFiles, TAU2_RESULTS, TAU_BENCH } from '../helpers/trajectory-import';

const bySource = (value: string) => [
  { field: 'task_source' as const, operator: 'AND' as const, conditions: [{ op: 'equals' as const, value }] },
];

/**
 * Issues 17 and 19: τ-bench numbers its tasks per domain, and τ²-bench's ids are per domain too. Task 0
 * of τ-bench airline, τ-bench retail and τ² airline, imported into one collection, are three tasks —
 * in the grid, curation, the report and the export — each keeping the id its source gave it.
 */
describe('task identity: benchmark and domain are part of an imported task id', () => {
  let core: Core;
  const dir = tempDir('task-identity-');
  beforeAll(async () => {
    core = createTestCore({ seedDemo: false }).core;
    const two = (task: number, rewards: number[]) => rewards.map((reward, trial) => ({ task, trial, reward }));
    const airline = writeTauBench(dir, 'airline.json', 'airline', [...two(0, [1, 1]), ...two(1, [1, 0])]);
    const retail = writeTauBench(dir, 'retail.json', 'retail', [...two(0, [0, 0]), ...two(1, [1, 1])]);
    const tau2 = writeTau2(dir, 'tau2-airline.json', { domain: 'airline', model: 'gpt-x' }, [
      { task: 0, trial: 0, reward: 1 },
      { task: 1, trial: 0, reward: 0 },
    ]);
    await importFiles(core, { paths: [airline, retail], format: 'tau-bench', collection: 'mixed' });
    await importFiles(core, { paths: [tau2], format: 'tau2', collection: 'mixed' });
  }, 120_000);
  afterAll(() => core?.close());

  it('stores <benchmark>/<domain>/<id> as the task, the source id and its source beside it', async () => {
    const rows = await allRows(core);
    const tasks = [...new Set(rows.map((r) => r.task_id))].sort();
    expect(tasks).toEqual([
      'tau-bench/airline/0',
      'tau-bench/airline/1',
      'tau-bench/retail/0',
      'tau-bench/retail/1',
      'tau2/airline/0',
      'tau2/airline/1',
    ]);
    for (const r of rows) {
      expect(r.task_id).toBe(`${r.task_source}/${r.source_task_id}`);
      expect(['0', '1']).toContain(r.source_task_id);
    }
    // The grid's Source column: a filter and its set filter's values.
    expect((await allRows(core, bySource('tau-bench/retail'))).map((r) => r.task_id)).toEqual([
      'tau-bench/retail/0',
      'tau-bench/retail/0',
      'tau-bench/retail/1',
      'tau-bench/retail/1',
    ]);
    const values = await ok(core, 'trajectories.values', { field: 'task_source' });
    expect(values.values.map((v) => [v.value, v.count])).toEqual([
      ['tau-bench/airline', 4],
      ['tau-bench/retail', 4],
      ['tau2/airline', 2],
    ]);
  });

  it('curation holds one row per task, with its source, and statistics of its own attempts only', async () => {
    const page = await ok(core, 'curation.tasks', { limit: 100 });
    const rows = new Map(page.rows.map((r) => [r.task_id, r]));
    expect(page.total).toBe(6);
    expect(rows.get('tau-bench/airline/0')).toMatchObject({ task_source: 'tau-bench/airline', attempts: 2 });
    expect(rows.get('tau-bench/airline/0')!.mean_completion).toBe(1);
    expect(rows.get('tau-bench/retail/0')).toMatchObject({ attempts: 2, mean_completion: 0 });
    expect(rows.get('tau2/airline/0')).toMatchObject({ task_source: 'tau2/airline', attempts: 1, mean_completion: 1 });
    const retail = await ok(core, 'curation.tasks', { limit: 100, filters: bySource('tau-bench/retail') });
    expect(retail.rows.map((r) => r.task_id)).toEqual(['tau-bench/retail/0', 'tau-bench/retail/1']);
  });

  it('the report of the collection counts every task of every domain (Pass^k per task)', async () => {
    const report = await ok(core, 'runs.report', { collection: 'mixed', k: 2 });
    expect(report.tasks.map((t) => [t.task_id, t.trials]).sort()).toEqual([
      ['tau-bench/airline/0', 2],
      ['tau-bench/airline/1', 2],
      ['tau-bench/retail/0', 2],
      ['tau-bench/retail/1', 2],
      ['tau2/airline/0', 1],
      ['tau2/airline/1', 1],
    ]);
    const hat = new Map(report.tasks.map((t) => [t.task_id, t.pass_hat_k]));
    expect([hat.get('tau-bench/airline/0'), hat.get('tau-bench/retail/0'), hat.get('tau-bench/retail/1')]).toEqual([
      1, 0, 1,
    ]);
    // τ's rule: the τ² tasks have one trial, so pass^2 is refused (τ²-bench's pass_hat_k raises), and the
    // zero-padded leaderboard, Claw-Eval's convention, covers none of these tasks.
    expect([hat.get('tau2/airline/0'), hat.get('tau2/airline/1')]).toEqual([null, null]);
    expect(report.overall).toMatchObject({ refused: 2, pass_hat_k: null });
    expect(report.overall.leaderboard.tasks).toBe(0);
  });

  it('the export keeps every record under its task key, with the source id and source in the lineage', async () => {
    const out = path.join(dir, 'sft');
    const { jobId } = await ok(core, 'export.sft', {
      dialect: 'openai',
      outDir: out,
      selection: { allUncurated: true },
      options: { pools: { mixed: { minReward: null, converter: false } } },
    });
    const job = await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 120_000 });
    expect(job.state, job.error ?? '').toBe('done');
    const m = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')) as SftManifest;
    // Task 0, trial 0 of three sources: three attempts, none a duplicate of another.
    expect(m.report.rejections.duplicate).toBeUndefined();
    expect(m.report.exported).toBe(10);
    const retail0 = m.records.filter((r) => r.taskId === 'tau-bench/retail/0');
    expect(retail0.map((r) => r.trial).sort()).toEqual([0, 1]);
    expect(retail0[0]!.lineage).toMatchObject({ sourceTaskId: '0', taskSource: 'tau-bench/retail' });
  });

  it('--task keeps the named task; the record still says which benchmark task it was', async () => {
    const file = writeTauBench(dir, 'named.json', 'airline', [{ task: 7, trial: 0, reward: 1 }]);
    await importFiles(core, { paths: [file], format: 'tau-bench', collection: 'named', taskId: 'T9' });
    const [row] = await allRows(core, [
      { field: 'collection', operator: 'AND', conditions: [{ op: 'equals', value: 'named' }] },
    ]);
    expect(row).toMatchObject({ task_id: 'T9', source_task_id: '7', task_source: 'tau-bench/airline' });
  });
});

describe.skipIf(!(hasTrajCorpus && FULL_DATA))('the τ corpus files in one collection (needs the full corpora)', () => {
  let core: Core;
  beforeAll(async () => {
    core = createTestCore({ seedDemo: false }).core;
    await importFiles(core, { paths: [TAU_BENCH, TAU2_RESULTS], collection: 'both' });
  }, 120_000);
  afterAll(() => core?.close());

  it("the report has τ-bench's 50 tasks and τ²'s 20 (whose ids collide), τ-bench's Pass^k as published", async () => {
    const report = await ok(core, 'runs.report', { collection: 'both', k: 2 });
    expect(report.tasks.length).toBe(70);
    const bench = report.tasks.filter((t) => t.task_id.startsWith('tau-bench/airline/'));
    expect(bench.length).toBe(50);
    expect(bench.every((t) => t.trials === 4)).toBe(true);
    // formats.md §5.4: pass^2 (combinatorial) 0.2733 and pass@2 0.5667 over the 50 τ-bench tasks.
    const mean = (xs: (number | null)[]) => xs.reduce((a: number, b) => a + b!, 0) / xs.length;
    expect(mean(bench.map((t) => t.pass_hat_k))).toBeCloseTo(0.2733, 4);
    expect(mean(bench.map((t) => t.pass_at_k))).toBeCloseTo(0.5667, 4);
    expect(report.tasks.filter((t) => t.task_id.startsWith('tau2/airline/')).length).toBe(20);
  });
});
