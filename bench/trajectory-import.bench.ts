/**
 * Trajectory import and the trajectories grid (issue 10):
 *
 *   1. import of a 100,000-trajectory messages JSONL built from the corpus shapes
 *      (bench/lib/trajectory-corpus.ts, ~1.9 GB) through trajectories.import — the job in its worker
 *      thread, in a process of its own (peak memory = its maxRSS). Baselines in the same run, on the
 *      same file: a bare JSON.parse pass (1 MB reads, split on "\n", toString, JSON.parse per line —
 *      nothing kept) and a plain Python json + sqlite3 script writing the same tables
 *      (bench/trajectory-import-baseline.py). Goals: throughput ≥ 0.7× the bare parse pass, faster
 *      than Python, peak memory < 500 MB. Informational: the floor (bench/lib/trajectory-floor.ts), the
 *      same rows, bodies and search texts written by one connection with only SQLite timed.
 *   2. trajectories.list blocks (100 rows) through core.dispatch on 1,000,000 rows: sorted by score,
 *      filtered by bucket and model (the brief's), and neighbours. Goal: < 150 ms.
 *
 * Knobs: BENCH_TRAJECTORIES (100,000), BENCH_GRID_ROWS (1,000,000), BENCH_RUNS (30). No assertions.
 */
import { spawnSync } from 'node:child_process';
import esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { createCore } from '../src/main/core';
import { openDb } from '../src/main/core/db/sqlite';
import type { Input } from '../src/shared/contract';
import type { ImportResult } from '../src/shared/contract/trajectories.contract';
import { emit, header, ms, REPO_ROOT, ratio, sample, stats, table, tempDir } from './lib/harness';
import { hasCorpus, writeTrajectoryJsonl } from './lib/trajectory-corpus';
import { sqliteFloor } from './lib/trajectory-floor';
import { gridWorkspace } from './lib/trajectory-grid';

const BENCH = 'trajectory-import';
const N = Number(process.env.BENCH_TRAJECTORIES ?? 100_000);
const GRID_ROWS = Number(process.env.BENCH_GRID_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const MB = 1024 * 1024;

/** The baseline: read, split, decode and JSON.parse every line; nothing kept. */
function bareParse(file: string): { ms: number; records: number } {
  const t0 = performance.now();
  const fd = fs.openSync(file, 'r');
  let buf = Buffer.alloc(0);
  let records = 0;
  const chunk = Buffer.allocUnsafe(MB);
  for (;;) {
    const n = fs.readSync(fd, chunk, 0, MB, null);
    if (!n) break;
    buf = buf.length ? Buffer.concat([buf, chunk.subarray(0, n)]) : Buffer.from(chunk.subarray(0, n));
    let s = 0;
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, s)) {
      JSON.parse(buf.toString('utf8', s, i));
      records++;
      s = i + 1;
    }
    buf = buf.subarray(s);
  }
  fs.closeSync(fd);
  return { ms: performance.now() - t0, records };
}

/** The job worker bundled from the current source, as electron-vite bundles out/main/job-worker.js. */
function bundleWorker(): string {
  // Inside the repository, so `require('better-sqlite3')` finds node_modules.
  const outfile = path.join(REPO_ROOT, 'node_modules/.cache/bench/job-worker.js');
  esbuild.buildSync({
    entryPoints: [path.join(REPO_ROOT, 'src/main/job-worker.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['better-sqlite3'],
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

async function emptyWorkspace(file: string): Promise<string> {
  await createCore({ workspacePath: file, watchIntervalMs: 0 }).close();
  return file;
}

async function importPart(dir: string): Promise<void> {
  const file = path.join(dir, 'trajectories.jsonl');
  const t0 = performance.now();
  const { bytes } = writeTrajectoryJsonl(file, N);
  console.log(
    `built ${file}: ${N.toLocaleString('en-US')} trajectories, ${(bytes / MB).toFixed(0)} MB in ` +
      `${ms(performance.now() - t0)}`,
  );

  const parse1 = bareParse(file);
  const ws = await emptyWorkspace(path.join(dir, 'ours.coworkenv.db'));
  const worker = bundleWorker();
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/lib/import-run.ts', ws, file, worker], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * MB,
  });
  if (run.status !== 0) throw new Error(`import failed: ${run.stderr}`);
  const ours = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
    ms: number;
    maxRssMb: number;
    result: ImportResult;
  };
  const parse2 = bareParse(file);
  const parseMs = (parse1.ms + parse2.ms) / 2;
  const oursSize = fs.statSync(ws).size;
  fs.rmSync(ws, { force: true });

  // Python's own SQLite (3.40 here) predates contentless_delete (3.43): its copy gets the same FTS5 table without it.
  const pyWs = await emptyWorkspace(path.join(dir, 'python.coworkenv.db'));
  const pdb = openDb(pyWs);
  pdb.exec(
    `DROP TRIGGER trajectories_fts_delete; DROP TABLE trajectories_fts;
    CREATE VIRTUAL TABLE trajectories_fts USING fts5 (text, content = '', tokenize = 'unicode61 remove_diacritics ` +
      `2');`,
  );
  pdb.close();
  const py = spawnSync('python3', ['bench/trajectory-import-baseline.py', pyWs, file], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  const python = py.status === 0 ? (JSON.parse(py.stdout.trim()) as { ms: number; stored: number }) : null;
  if (!python) console.log(`python baseline did not run: ${py.error?.message ?? py.stderr}`);

  // The floor: the same rows, bodies and search texts written by one connection, only SQLite timed.
  const floorWs = await emptyWorkspace(path.join(dir, 'floor.coworkenv.db'));
  const floor = sqliteFloor(floorWs, file);
  fs.rmSync(floorWs, { force: true });
  const floorMs = floor.rowsMs + floor.ftsMs;

  const mbps = (t: number) => bytes / MB / (t / 1000);
  const vsParse = parseMs / ours.ms;
  const vsPython = python ? python.ms / ours.ms : null;
  const rows = [
    ['bare JSON.parse pass (baseline)', ms(parseMs), `${mbps(parseMs).toFixed(0)} MB/s`, '×1.00', '', ''],
    [
      'trajectories.import (job, worker thread)',
      ms(ours.ms),
      `${mbps(ours.ms).toFixed(0)} MB/s`,
      ratio(vsParse),
      `${ours.maxRssMb.toFixed(0)} MB`,
      `${ours.result.stored.toLocaleString('en-US')} stored, ${ours.result.refused} refused`,
    ],
  ];
  if (python)
    rows.push([
      'python3 json + sqlite3 (same tables)',
      ms(python.ms),
      `${mbps(python.ms).toFixed(0)} MB/s`,
      ratio(parseMs / python.ms),
      '',
      `${python.stored.toLocaleString('en-US')} stored`,
    ]);
  rows.push([
    'SQLite writes alone (floor, one thread)',
    ms(floorMs),
    `${mbps(floorMs).toFixed(0)} MB/s`,
    ratio(parseMs / floorMs),
    '',
    `rows + bodies ${ms(floor.rowsMs)}, search index ${ms(floor.ftsMs)}`,
  ]);
  console.log(`\nbare JSON.parse passes: ${ms(parse1.ms)} before, ${ms(parse2.ms)} after the import`);
  console.log(table(['import of the JSONL', 'time', 'throughput', 'vs JSON.parse', 'peak RSS', 'records'], rows));
  console.log(`workspace after the import: ${(oursSize / MB).toFixed(0)} MB (bodies are the source lines as read)`);
  const perRecord = (ours.ms * 1000) / N;
  emit({
    bench: BENCH,
    name: `import ${N.toLocaleString('en-US')} trajectories (${(bytes / MB).toFixed(0)} MB JSONL)`,
    median_ms: ours.ms,
    calls_per_s: N / (ours.ms / 1000),
    ratio: ours.ms / parseMs,
    baseline: `bare JSON.parse pass ${ms(parseMs)}; ${perRecord.toFixed(0)} µs per trajectory`,
    goal: 'throughput ≥ 0.7× JSON.parse',
    met: vsParse >= 0.7,
  });
  if (python)
    emit({
      bench: BENCH,
      name: 'import vs python3 json + sqlite3',
      median_ms: ours.ms,
      ratio: ours.ms / python.ms,
      baseline: `python ${ms(python.ms)}`,
      goal: 'faster than python',
      met: (vsPython ?? 0) > 1,
    });
  emit({
    bench: BENCH,
    name: 'SQLite writes alone (rows, bodies, search index; informational floor)',
    median_ms: floorMs,
    ratio: floorMs / parseMs,
    baseline: `bare JSON.parse pass ${ms(parseMs)}; rows + bodies ${ms(floor.rowsMs)}, search ${ms(floor.ftsMs)}`,
  });
  emit({
    bench: BENCH,
    name: 'import peak memory (process maxRSS, MB as ms)',
    median_ms: ours.maxRssMb,
    ratio: null,
    baseline: 'maxRSS of the importing process',
    goal: '< 500 MB',
    met: ours.maxRssMb < 500,
  });
}

type Block = Input<'trajectories.list'>;
type Field = NonNullable<Block['filters']>[number]['field'];
const eq = (field: Field, value: string | number) => ({
  field,
  operator: 'AND' as const,
  conditions: [{ op: 'equals' as const, value }],
});
const GRID: [string, Block][] = [
  [
    'score desc + bucket = KEEP, model = model-3 (the brief)',
    { limit: 100, sort: [{ field: 'score', dir: 'desc' }], filters: [eq('bucket', 'KEEP'), eq('model', 'model-3')] },
  ],
  [
    'the same, offset 2,000',
    {
      offset: 2000,
      limit: 100,
      sort: [{ field: 'score', dir: 'desc' }],
      filters: [eq('bucket', 'KEEP'), eq('model', 'model-3')],
    },
  ],
  [
    'the same + superseded = 0',
    {
      limit: 100,
      sort: [{ field: 'score', dir: 'desc' }],
      filters: [eq('bucket', 'KEEP'), eq('model', 'model-3'), eq('superseded', 0)],
    },
  ],
  [
    'score desc + model = model-3',
    { limit: 100, sort: [{ field: 'score', dir: 'desc' }], filters: [eq('model', 'model-3')] },
  ],
  ['score desc, no filter', { limit: 100, sort: [{ field: 'score', dir: 'desc' }] }],
  [
    'created_at desc + collection = collection-7',
    { limit: 100, sort: [{ field: 'created_at', dir: 'desc' }], filters: [eq('collection', 'collection-7')] },
  ],
  [
    'source_reward desc + bucket = UNSOLVABLE',
    { limit: 100, sort: [{ field: 'source_reward', dir: 'desc' }], filters: [eq('bucket', 'UNSOLVABLE')] },
  ],
  [
    'task_id asc + task_id = task-42',
    { limit: 100, sort: [{ field: 'task_id', dir: 'asc' }], filters: [eq('task_id', 'task-42')] },
  ],
];

async function gridPart(dir: string): Promise<void> {
  const file = path.join(dir, 'grid.coworkenv.db');
  const t0 = performance.now();
  await gridWorkspace(file, GRID_ROWS);
  console.log(`\n${GRID_ROWS.toLocaleString('en-US')} rows written in ${ms(performance.now() - t0)}`);
  const core = createCore({ workspacePath: file, watchIntervalMs: 0 });
  try {
    const rows: string[][] = [];
    for (const [label, q] of GRID) {
      const first = await core.dispatch('trajectories.list', q);
      if (!first.ok) throw new Error(`${label}: ${first.error.message}`);
      const s = stats(await sample(() => core.dispatch('trajectories.list', q), RUNS, 3));
      const brief = label.includes('the brief');
      rows.push([label, (first.data as { total: number }).total.toLocaleString('en-US'), ms(s.median), ms(s.p95)]);
      emit({
        bench: BENCH,
        name: `grid on ${(GRID_ROWS / 1e6).toFixed(1)}M rows: ${label}`,
        median_ms: s.median,
        p95_ms: s.p95,
        ratio: null,
        baseline: 'none (absolute goal)',
        goal: '< 150 ms',
        met: (brief ? s.p95 : s.median) < 150,
      });
    }
    // The set filter's list and the quick search of the trajectories page (informational: no goal of their own).
    const more: [string, string, unknown][] = [
      [
        'values of model under bucket = KEEP',
        'trajectories.values',
        { field: 'model', filters: [eq('bucket', 'KEEP')] },
      ],
      ['values of task_id (5,000 tasks, first 1,000)', 'trajectories.values', { field: 'task_id' }],
      [
        'quick search "task-42" (LIKE over ids and labels), score desc',
        'trajectories.list',
        {
          limit: 100,
          quick: 'task-42',
          sort: [{ field: 'score', dir: 'desc' }],
        },
      ],
    ];
    for (const [label, name, input] of more) {
      const first = await core.dispatch(name as 'trajectories.list', input as Block);
      if (!first.ok) throw new Error(`${label}: ${first.error.message}`);
      const s = stats(await sample(() => core.dispatch(name as 'trajectories.list', input as Block), RUNS, 3));
      const d = first.data as { total?: number; values?: unknown[] };
      rows.push([label, (d.total ?? d.values?.length ?? 0).toLocaleString('en-US'), ms(s.median), ms(s.p95)]);
      emit({
        bench: BENCH,
        name: `grid on ${(GRID_ROWS / 1e6).toFixed(1)}M rows: ${label}`,
        median_ms: s.median,
        p95_ms: s.p95,
        ratio: null,
        baseline: 'none (informational)',
      });
    }
    console.log(table(['trajectories.list block (100 rows) via dispatch', 'matched', 'median', 'p95'], rows));
  } finally {
    await core.close();
  }
}

async function main() {
  header(
    `${BENCH}: import of ${N.toLocaleString('en-US')} trajectories; grid on ${GRID_ROWS.toLocaleString('en-US')} rows`,
  );
  const tmp = tempDir('coworkenv-traj-bench-');
  try {
    if (N === 0) console.log('import skipped (BENCH_TRAJECTORIES=0)');
    else if (hasCorpus) await importPart(tmp.dir);
    else
      emit({
        bench: BENCH,
        name: 'import',
        median_ms: 0,
        ratio: null,
        baseline: '',
        skipped: 'the trajectory corpus (../shared) is absent',
      });
    await gridPart(tmp.dir);
  } finally {
    tmp.cleanup();
  }
}

void main();
