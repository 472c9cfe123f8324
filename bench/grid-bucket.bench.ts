/**
 * The trajectories grid under a bucket filter on realistic data (issue 21 item 11): BENCH_GRID_ROWS (1,000,000)
 * rows grown from the corpus as recorded, buckets from applying every task's suggestion
 * (bench/lib/realistic-grid.ts). Reads: the first block (100 rows) of each bucket × sort, deep blocks (the
 * 51st reached block by block, and jumps to rows 5,000 and 50,000) and the model value list, against the plain
 * query (no group merge) on the same file in the same run. Writes: re-assign a bucket's tasks, undo, clear all,
 * apply every suggestion, on this file and on a copy without migration 0028 (the baseline); and an import of
 * BENCH_IMPORT_ROWS (100,000) rows into a fresh workspace with and without 0028. Goal: blocks < 150 ms; writes
 * as before. No assertions. BENCH_GRID_FILE reuses a workspace realistic-grid.ts made (it is copied).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createCore } from '../src/main/core';
import { pagedList, pagedValues } from '../src/main/core/db/paged-list';
import { openDb, readHandle } from '../src/main/core/db/sqlite';
import { TRAJECTORY_TABLE } from '../src/main/core/trajectories/trajectories.repo';
import { gridWrites, withoutTaskMerge } from './lib/grid-writes';
import { emit, header, ms, ratio, sample, stats, table, tempDir } from './lib/harness';
import { bundleWorker, runJobProcess } from './lib/job-process';
import { realisticGrid } from './lib/realistic-grid';
import { hasCorpus, writeTrajectoryJsonl } from './lib/trajectory-corpus';

const ROWS = Number(process.env.BENCH_GRID_ROWS ?? 1_000_000);
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const GOAL = 150;
const PLAIN = { ...TRAJECTORY_TABLE, merge: undefined };
const SORTS = [
  'source_reward desc',
  'source_reward asc',
  'score desc',
  'score asc',
  'model asc',
  'model desc',
  'collection asc',
  'collection desc',
  'created_at desc',
  'created_at asc',
  'task_id asc',
  'agent asc',
  'id desc',
];
type Table = typeof TRAJECTORY_TABLE | typeof PLAIN;
type Case = [string, (t: Table) => unknown];
const rows: string[][] = [];

async function measure(name: string, run: (t: Table) => unknown, goal = GOAL) {
  const now = stats(await sample(() => run(TRAJECTORY_TABLE), RUNS, 1));
  const old = stats(await sample(() => run(PLAIN), Math.min(RUNS, 3), 1));
  const met = now.median < goal;
  rows.push([
    name,
    ms(now.median),
    ms(now.p95),
    ms(old.median),
    ratio(now.median / old.median),
    met ? 'met' : 'MISSED',
  ]);
  emit({
    bench: 'grid-bucket',
    name,
    median_ms: now.median,
    p95_ms: now.p95,
    ratio: now.median / old.median,
    baseline: 'the plain query (no group merge) on the same file',
    goal: `median < ${goal} ms`,
    met,
  });
}

async function reads(file: string) {
  const db = openDb(file, { readOnly: true });
  const rd = readHandle(db);
  try {
    for (const bucket of ['UNSOLVABLE', 'KEEP', 'TRIVIAL']) {
      const filters = [
        { field: 'bucket', operator: 'AND' as const, conditions: [{ op: 'in' as const, values: [bucket] }] },
      ];
      const page = (s: string, offset: number) => (t: Table) => {
        const [field, dir] = s.split(' ') as [string, 'asc' | 'desc'];
        return pagedList(rd, t, { filters, sort: [{ field, dir }], offset, limit: 100 });
      };
      const cases: Case[] = SORTS.map((s) => [`${s} + ${bucket}`, page(s, 0)]);
      cases.push([`model values under ${bucket}`, (t) => pagedValues(rd, t, 'model', { filters, limit: 1000 })]);
      for (const [name, run] of cases) await measure(name, run);
    }
    // Deep blocks: block by block (each continues the last), and jumps from the first block.
    const filters = [
      { field: 'bucket', operator: 'AND' as const, conditions: [{ op: 'in' as const, values: ['TRIVIAL'] }] },
    ];
    const q = (offset: number) => ({
      filters,
      sort: [{ field: 'source_reward', dir: 'asc' as const }],
      offset,
      limit: 100,
    });
    await measure(
      'reward asc + TRIVIAL: blocks 1–51 in turn (all)',
      (t) => {
        for (let b = 0; b <= 50; b++) pagedList(rd, t, q(b * 100));
      },
      GOAL * 51,
    );
    for (const offset of [5_000, 50_000])
      await measure(
        `reward asc + TRIVIAL: first block, then a jump to row ${offset}`,
        (t) => {
          pagedList(rd, t, q(0));
          pagedList(rd, t, q(offset));
        },
        GOAL * 2,
      );
  } finally {
    db.close();
  }
}

async function importCost(dir: string): Promise<[number, number]> {
  const jsonl = path.join(dir, 'import.jsonl');
  writeTrajectoryJsonl(jsonl, IMPORT_ROWS);
  const worker = bundleWorker();
  const once = async (before: boolean) => {
    const file = path.join(dir, `import-${before ? 'before' : 'after'}.coworkenv.db`);
    await createCore({ workspacePath: file, watchIntervalMs: 0 }).close();
    if (before) withoutTaskMerge(file);
    const r = runJobProcess('bench/lib/import-run.ts', [file, jsonl, worker]);
    fs.rmSync(file, { force: true });
    return r.ms;
  };
  return [await once(true), await once(false)];
}

async function main() {
  header(`grid-bucket: trajectories.list under a bucket filter, ${ROWS.toLocaleString('en-US')} realistic rows`);
  if (!hasCorpus) return console.log('skipped: the corpora in ../shared are absent');
  const tmp = tempDir('bench-grid-bucket-');
  try {
    let file = path.join(tmp.dir, 'realistic.coworkenv.db');
    if (process.env.BENCH_GRID_FILE) fs.copyFileSync(process.env.BENCH_GRID_FILE, file);
    else {
      const ws = await realisticGrid(tmp.dir, ROWS);
      file = ws.file;
      console.log(`${ws.rows} rows, ${ws.tasks} tasks, buckets ${JSON.stringify(ws.buckets)}`);
    }
    await createCore({ workspacePath: file, watchIntervalMs: 0 }).close(); // migrates a kept file
    await reads(file);
    console.log(table(['query', 'median', 'p95', 'plain query', 'vs plain', 'goal'], rows));
    const before = path.join(tmp.dir, 'before.coworkenv.db');
    fs.copyFileSync(file, before);
    withoutTaskMerge(before);
    const w = [await gridWrites(before, 'UNSOLVABLE', 'KEEP'), await gridWrites(file, 'UNSOLVABLE', 'KEEP')];
    const [impBefore, impAfter] = await importCost(tmp.dir);
    const wr = (k: 'reassign' | 'undo' | 'clear' | 'applyAll', label: string) => {
      emit({
        bench: 'grid-bucket',
        name: label,
        median_ms: w[1]![k],
        ratio: w[1]![k] / w[0]![k],
        baseline: 'before 0028',
      });
      return [label, ms(w[0]![k]), ms(w[1]![k]), ratio(w[1]![k] / w[0]![k])];
    };
    console.log(
      table(
        ['write', 'before 0028', 'after', 'ratio'],
        [
          wr('reassign', `re-assign ${w[1]!.tasks} UNSOLVABLE tasks to KEEP`),
          wr('undo', 'undo that'),
          wr('clear', 'clear every bucket'),
          wr('applyAll', 'apply every suggestion'),
          [
            `import ${IMPORT_ROWS.toLocaleString('en-US')} rows`,
            ms(impBefore),
            ms(impAfter),
            ratio(impAfter / impBefore),
          ],
        ],
      ),
    );
    emit({
      bench: 'grid-bucket',
      name: 'import',
      median_ms: impAfter,
      ratio: impAfter / impBefore,
      baseline: 'before 0028',
    });
  } finally {
    tmp.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
