/**
 * Curation on BENCH_TRAJECTORIES trajectories of BENCH_TASKS tasks (default 1,000,000 / 50,000),
 * through core.dispatch: bulk re-assignment by filter (goal < 1.5 s), recomputing every task's
 * statistics (goal < 2 s) and the curation grid's block query (goal < 150 ms). Baselines in the
 * same run: a raw `UPDATE curation_tasks SET bucket = ?` of the same tasks without log (what the
 * write costs by itself; before migration 0013 it was the trajectories' copy of the bucket), a raw
 * `SELECT count(*) FROM trajectories`, and a grid block of the trajectories table (trajectories.list, 100 rows).
 */
import path from 'node:path';
import { createCore } from '../src/main/core';
import { openDb } from '../src/main/core/db/sqlite';
import { curationWorkspace } from '../test/helpers/curation-fill';
import { emit, header, ms, ratio, sample, stats, table, tempDir } from './lib/harness';

const TRAJECTORIES = Number(process.env.BENCH_TRAJECTORIES ?? 1_000_000);
const TASKS = Number(process.env.BENCH_TASKS ?? 50_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

async function main() {
  header(`curation: ${TRAJECTORIES.toLocaleString('en-US')} trajectories / ${TASKS.toLocaleString('en-US')} tasks`);
  const tmp = tempDir('coworkenv-bench-curation-');
  const file = path.join(tmp.dir, 'curation.coworkenv.db');
  const t0 = performance.now();
  await curationWorkspace(file, { tasks: TASKS, perTask: Math.round(TRAJECTORIES / TASKS) });
  console.log(`workspace made and settled in ${ms(performance.now() - t0)}`);
  const core = createCore({ workspacePath: file, watchIntervalMs: 0 });
  const call = async (name: string, input: unknown) => {
    const r = await core.dispatch(name, input);
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
    return r.data as Record<string, unknown>;
  };
  const rows: string[][] = [];
  const figure = (name: string, s: ReturnType<typeof stats>, base: number, baseline: string, goal: number) => {
    const met = s.median < goal;
    rows.push([name, ms(s.median), ms(s.p95), ratio(s.median / base), `${goal} ms`, met ? 'met' : 'MISSED']);
    emit({
      bench: 'curation',
      name,
      median_ms: s.median,
      p95_ms: s.p95,
      ratio: s.median / base,
      baseline,
      goal: `median < ${goal} ms`,
      met,
    });
  };
  try {
    // Bulk re-assignment by filter: the tasks the rules call UNSOLVABLE (a tenth), alternately KEEP and UNSOLVABLE.
    const where = { filters: [{ field: 'suggested', conditions: [{ op: 'equals', value: 'UNSOLVABLE' }] }] };
    const matched = (await call('curation.ids', { ...where, limit: 1 })).total as number;
    let i = 0;
    let changedRows = 0;
    const assign = stats(
      await sample(
        async () => {
          const bucket = i++ % 2 === 0 ? 'KEEP' : 'UNSOLVABLE';
          const r = await call('curation.assign', { bucket, select: { where }, reason: `bench ${i}` });
          if (r.changed !== matched) throw new Error(`changed ${r.changed}, expected ${matched}`);
        },
        RUNS,
        1,
      ),
    );
    const raw = openDb(file);
    try {
      changedRows = (
        raw
          .prepare(
            'SELECT count(*) AS n FROM trajectories WHERE task_id IN ' +
              "(SELECT task_id FROM curation_tasks WHERE bucket IN ('KEEP', 'UNSOLVABLE'))",
          )
          .get() as { n: number }
      ).n;
      // What the write costs by itself: the tasks' bucket (a trajectory's bucket is its task's, migration 0013).
      const set = raw.prepare("UPDATE curation_tasks SET bucket = ? WHERE suggested = 'UNSOLVABLE'");
      let j = 0;
      const rawUpdate = stats(
        await sample(() => raw.transaction(() => set.run(j++ % 2 === 0 ? 'TRIVIAL' : 'UNSOLVABLE'))(), RUNS, 1),
      );
      console.log(
        `filter matched ${matched.toLocaleString('en-US')} tasks, ${changedRows.toLocaleString('en-US')} trajectories`,
      );
      figure(
        `bulk re-assign by filter (${matched} tasks)`,
        assign,
        rawUpdate.median,
        'raw UPDATE of the same tasks (curation_tasks.bucket)',
        1500,
      );
      const countAll = stats(await sample(() => raw.prepare('SELECT count(*) FROM trajectories').get(), RUNS, 1));
      const recompute = stats(await sample(() => call('curation.recompute', {}), RUNS, 1));
      figure('recompute all task statistics', recompute, countAll.median, 'SELECT count(*) FROM trajectories', 2000);
      // The same when every task's stored statistics are off (a repair that rewrites all 50,000 rows): the
      // statistics are spoiled outside the timed call, which then writes every task back.
      const stale: number[] = [];
      const spoil = raw.prepare('UPDATE curation_tasks SET attempts = attempts + 1');
      for (let k = 0; k < RUNS; k++) {
        raw.transaction(() => spoil.run())();
        const t0 = performance.now();
        const r = await call('curation.recompute', {});
        stale.push(performance.now() - t0);
        if (r.tasks !== TASKS) throw new Error(`recomputed ${r.tasks} tasks, expected ${TASKS}`);
      }
      figure(
        'recompute all, every task stale',
        stats(stale),
        countAll.median,
        'SELECT count(*) FROM trajectories',
        2000,
      );
    } finally {
      raw.close();
    }
    const base = stats(await sample(() => call('trajectories.list', { limit: 100 }), RUNS * 4, 2));
    const blocks: [string, unknown][] = [
      ['grid block: first 100 by mean completion', { limit: 100, sort: [{ field: 'mean_completion', dir: 'desc' }] }],
      [
        'grid block: bucket filter, deep page',
        {
          offset: 2000,
          limit: 100,
          sort: [{ field: 'mean_completion', dir: 'asc' }],
          filters: [{ field: 'bucket', conditions: [{ op: 'in', values: ['KEEP'] }] }],
        },
      ],
      [
        'grid block: category + service filter, sort by variance',
        {
          limit: 100,
          sort: [{ field: 'variance', dir: 'desc' }],
          filters: [
            { field: 'category', conditions: [{ op: 'equals', value: 'finance' }] },
            { field: 'services', conditions: [{ op: 'equals', value: 'gmail' }] },
          ],
        },
      ],
      ['charts (histograms and counts), no filter', null],
    ];
    for (const [name, input] of blocks) {
      const s = stats(
        await sample(() => (input === null ? call('curation.charts', {}) : call('curation.tasks', input)), RUNS * 4, 2),
      );
      figure(name, s, base.median, 'trajectories.list limit 100', 150);
    }
    console.log(table(['case', 'median', 'p95', 'vs baseline', 'goal', ''], rows));
  } finally {
    await core.close();
    tmp.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
