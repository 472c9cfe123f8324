/**
 * Peak memory of an SFT export as the workspace grows (issue 17: 10k → 1M trajectories). BENCH_MEMORY_BASE
 * (2,000) trajectories of the corpus shapes are imported, then the workspace is grown in SQLite to each
 * size of BENCH_MEMORY_SIZES (10000,100000,1000000; bench/lib/grow-workspace.ts: copies with reward 0, every
 * 100th a duplicate, rejected on their metadata) and exported (TRL, all uncurated) by the job in a process
 * of its own: its maxRSS is the figure. The same-run baseline is the smallest size's. Goal: flat.
 */
import os from 'node:os';
import path from 'node:path';
import { createCore } from '../src/main/core';
import { emit, header, ms, table, tempDir } from './lib/harness';
import { bundleWorker, runJobProcess } from './lib/job-process';
import { growTrajectories } from './lib/grow-workspace';
import { hasCorpus, writeTrajectoryJsonl } from './lib/trajectory-corpus';

const BENCH = 'export-memory';
const BASE = Number(process.env.BENCH_MEMORY_BASE ?? 2000);
const SIZES = (process.env.BENCH_MEMORY_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function main() {
  header(`${BENCH}: SFT export peak RSS at ${SIZES.map((n) => n.toLocaleString('en-US')).join(', ')} trajectories`);
  if (!hasCorpus) return console.log('skipped: the corpora in ../shared are absent');
  const tmp = tempDir('bench-export-memory-');
  const file = path.join(tmp.dir, 'base.jsonl');
  writeTrajectoryJsonl(file, BASE);
  const ws = path.join(tmp.dir, 'ws.coworkenv.db');
  await createCore({ workspacePath: ws, watchIntervalMs: 0 }).close();
  const worker = bundleWorker();
  runJobProcess('bench/lib/import-run.ts', [ws, file, worker]);
  const rows: string[][] = [];
  let first: number | null = null;
  for (const n of SIZES) {
    const t0 = performance.now();
    growTrajectories(ws, n, BASE);
    const grown = performance.now() - t0;
    const at = load();
    const r = runJobProcess('bench/lib/export-run.ts', [ws, path.join(tmp.dir, `out-${n}`), 'trl', worker]);
    const report = r.result.report as { exported: number; input: number };
    first ??= r.maxRssMb;
    rows.push([
      n.toLocaleString('en-US'),
      `${r.maxRssMb.toFixed(0)} MB`,
      `×${(r.maxRssMb / first).toFixed(2)}`,
      ms(r.ms),
      `${report.exported} of ${report.input}`,
      ms(grown),
      at,
    ]);
    emit({
      bench: BENCH,
      name: `SFT export peak RSS, ${n.toLocaleString('en-US')} trajectories (MB in median_ms)`,
      median_ms: r.maxRssMb,
      ratio: r.maxRssMb / first,
      baseline: `peak RSS at ${SIZES[0]!.toLocaleString('en-US')} trajectories: ${first.toFixed(0)} MB`,
      goal: 'flat (≤ ×1.25 the smallest size)',
      met: r.maxRssMb / first <= 1.25,
    });
  }
  console.log(
    table(['trajectories', 'peak RSS', 'vs smallest', 'export time', 'exported', 'grown in', 'load at start'], rows),
  );
  tmp.cleanup();
}

void main();
