/**
 * The Export page's preview and exact count on a large workspace (issue 21 item 2), and a grid call made while one
 * runs. BENCH_MEMORY_BASE-style: BENCH_PREVIEW_BASE (2,000) corpus-shaped trajectories imported, the workspace grown
 * in SQLite to BENCH_PREVIEW_SIZE (100,000; bench/lib/grow-workspace.ts). Baseline in the same run: the old path —
 * the LightTable selection in the core's thread (the workspace records iterated as plain records). New: the SQL
 * selection (issue 17), in the core's thread and through core.dispatch (a query worker). Concurrency: grid calls
 * (trajectories.list, 100 rows) one after another while an exact count runs; the old path's grid call waits for
 * the whole preview (it arrives during it and is served after).
 */
import os from 'node:os';
import path from 'node:path';
import { createCore } from '../src/main/core';
import { openDb, readHandle } from '../src/main/core/db/sqlite';
import { previewSft, type SftRecord } from '../src/main/core/export/sft';
import { RedactionTally, workspaceSftRecords } from '../src/main/core/export/workspace/sft-records';
import { SftSelection } from '../src/shared/contract/export.contract';
import { emit, header, ms, table, tempDir } from './lib/harness';
import { bundleWorker, runJobProcess } from './lib/job-process';
import { growTrajectories } from './lib/grow-workspace';
import { hasCorpus, writeTrajectoryJsonl } from './lib/trajectory-corpus';

const BENCH = 'export-preview';
const BASE = Number(process.env.BENCH_PREVIEW_BASE ?? 2000);
const SIZE = Number(process.env.BENCH_PREVIEW_SIZE ?? 100_000);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const timed = <T>(f: () => T): [T, number] => {
  const t0 = performance.now();
  const r = f();
  return [r, performance.now() - t0];
};

async function main() {
  header(`${BENCH}: SFT preview and exact count at ${SIZE.toLocaleString('en-US')} trajectories`);
  if (!hasCorpus) return console.log('skipped: the corpora in ../shared are absent');
  const tmp = tempDir('bench-export-preview-');
  const file = path.join(tmp.dir, 'base.jsonl');
  writeTrajectoryJsonl(file, BASE);
  const ws = path.join(tmp.dir, 'ws.coworkenv.db');
  await createCore({ workspacePath: ws, watchIntervalMs: 0 }).close();
  const worker = bundleWorker();
  runJobProcess('bench/lib/import-run.ts', [ws, file, worker]);
  growTrajectories(ws, SIZE, BASE);
  const db = openDb(ws, { readOnly: true });
  const selection = SftSelection.parse({ allUncurated: true });
  const options = { admittedBuckets: ['KEEP' as const, 'TRIVIAL' as const, 'UNBUCKETED' as const] };
  const sql = () => workspaceSftRecords(readHandle(db), selection, new RedactionTally());
  const js = (): Iterable<SftRecord> => {
    const r = sql();
    return { [Symbol.iterator]: () => r[Symbol.iterator]() };
  };
  const run = (records: Iterable<SftRecord>, sampleBodies?: number) =>
    previewSft({ records, dialect: 'trl', options, ...(sampleBodies ? { sampleBodies } : {}) });
  const rows: string[][] = [];
  const figure = (name: string, oldMs: number, newMs: number, goal: string, met: boolean) => {
    rows.push([name, ms(oldMs), ms(newMs), `×${(oldMs / newMs).toFixed(2)}`]);
    emit({ bench: BENCH, name, median_ms: newMs, ratio: newMs / oldMs, baseline: `old path ${ms(oldMs)}`, goal, met });
  };
  run(sql(), 500); // warm-up: the first pass pays the page cache and the JIT, whichever path runs it
  const at = load();
  const [, oldSampled] = timed(() => run(js(), 500));
  const [a, newSampled] = timed(() => run(sql(), 500));
  figure(
    'preview (500 bodies), core thread',
    oldSampled,
    newSampled,
    'faster than the old path',
    newSampled < oldSampled,
  );
  const [, oldExact] = timed(() => run(js()));
  const [b, newExact] = timed(() => run(sql()));
  figure('exact count, core thread', oldExact, newExact, 'faster than the old path', newExact < oldExact);

  const core = createCore({ workspacePath: ws, watchIntervalMs: 0, workerEntry: worker });
  const input = { dialect: 'trl', selection: { allUncurated: true }, key: 'bench' };
  await core.dispatch('export.sftPreview', input); // the query worker's start
  const t0 = performance.now();
  await core.dispatch('export.sftPreview', input);
  const viaWorker = performance.now() - t0;
  figure(
    'preview (500 bodies), query worker',
    oldSampled,
    viaWorker,
    'faster than the old path',
    viaWorker < oldSampled,
  );

  // Grid calls while an exact count runs in the query worker.
  const latencies: number[] = [];
  let running = true;
  const count = core.dispatch('export.sftPreview', { ...input, maxBodies: null }).finally(() => {
    running = false;
  });
  while (running) {
    const g0 = performance.now();
    await core.dispatch('trajectories.list', { offset: 0, limit: 100 });
    latencies.push(performance.now() - g0);
    await new Promise((r) => setImmediate(r));
  }
  await count;
  latencies.sort((x, y) => x - y);
  const worst = latencies.at(-1) ?? 0;
  // The old path: a grid call that arrives while the preview runs in the core's thread is served after it.
  let waited = 0;
  const g = new Promise<void>((resolve) => {
    const asked = performance.now();
    setImmediate(() => {
      void core.dispatch('trajectories.list', { offset: 0, limit: 100 }).then(() => {
        waited = performance.now() - asked;
        resolve();
      });
    });
    run(js());
  });
  await g;
  figure('grid call during an exact count (worst)', waited, worst, 'any other call ≤ 100 ms', worst <= 100);
  await core.close();
  db.close();
  console.log(table(['what', 'old path', 'new', 'old / new'], rows));
  console.log(
    `grid calls during the count: ${latencies.length}, median ${ms(latencies[latencies.length >> 1])}, ` +
      `worst ${ms(worst)}; exported ${a.report.exported} / ${b.report.exported} of ${b.report.input}; load ${at}`,
  );
  tmp.cleanup();
}

void main();
