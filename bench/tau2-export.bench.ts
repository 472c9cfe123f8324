/**
 * SFT export of τ²-bench data against its import (issue 17): a τ² results file of BENCH_TAU2_MB (207)
 * MB, the corpus file's 20 simulations replicated with new ids (bench/lib/tau2-results.ts), is
 * imported through trajectories.import, then exported through export.sft (TRL, every trajectory
 * admitted, all filters). Each is the job in its worker thread, in a process of its own (peak RSS =
 * its maxRSS). Goal: export ≤ 1.5× the import time, measured in the same run. No assertions.
 */
import os from 'node:os';
import path from 'node:path';
import { createCore } from '../src/main/core';
import { emit, header, ms, table, tempDir } from './lib/harness';
import { bundleWorker, runJobProcess } from './lib/job-process';
import { hasTau2Corpus, TAU2_RESULTS, writeTau2Results } from './lib/tau2-results';

const BENCH = 'tau2-export';
const TARGET_MB = Number(process.env.BENCH_TAU2_MB ?? 207);
const MB = 1024 * 1024;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function main() {
  header(`${BENCH}: import then SFT export of a ${TARGET_MB} MB τ²-bench results file`);
  if (!hasTau2Corpus) return console.log(`skipped: the τ² corpus (${path.dirname(TAU2_RESULTS)}) is absent`);
  const tmp = tempDir('bench-tau2-export-');
  const file = path.join(tmp.dir, 'tau2-results.json');
  const { bytes, simulations } = writeTau2Results(file, TARGET_MB * MB);
  const ws = path.join(tmp.dir, 'ws.coworkenv.db');
  await createCore({ workspacePath: ws, watchIntervalMs: 0 }).close();
  const worker = bundleWorker();
  const loadBefore = load();
  const imported = runJobProcess('bench/lib/import-run.ts', [ws, file, worker]);
  const loadMid = load();
  const exported = runJobProcess('bench/lib/export-run.ts', [ws, path.join(tmp.dir, 'out-trl'), 'trl', worker]);
  const report = exported.result.report as {
    exported: number;
    input: number;
    rejections: Record<string, { count: number; detail: string | null }>;
  };
  const x = exported.ms / imported.ms;
  console.log(
    table(
      ['step', 'time', 'CPU', 'throughput', 'peak RSS', 'records', 'load at start'],
      [
        [
          'trajectories.import (baseline)',
          ms(imported.ms),
          ms(imported.cpuMs),
          `${(bytes / MB / (imported.ms / 1000)).toFixed(1)} MB/s`,
          `${imported.maxRssMb.toFixed(0)} MB`,
          `${simulations.toLocaleString('en-US')}`,
          loadBefore,
        ],
        [
          'export.sft trl of the same records',
          ms(exported.ms),
          ms(exported.cpuMs),
          `${(simulations / (exported.ms / 1000)).toFixed(0)} rec/s`,
          `${exported.maxRssMb.toFixed(0)} MB`,
          `${report.exported} of ${report.input}`,
          loadMid,
        ],
      ],
    ),
  );
  const why = Object.entries(report.rejections).map(([r, v]) => `${r} ${v.count} (${v.detail})`);
  console.log(`rejected: ${why.join('; ') || 'none'}`);
  console.log(`file: ${(bytes / MB).toFixed(0)} MB, ${simulations} simulations; load at the end ${load()}`);
  console.log(`export / import time: ×${x.toFixed(2)} (goal ≤ ×1.5: ${x <= 1.5 ? 'met' : 'MISSED'})`);
  console.log(`export / import CPU: ×${(exported.cpuMs / imported.cpuMs).toFixed(2)} (user + system, all threads)`);
  emit({
    bench: BENCH,
    name: `SFT export (trl) of a ${(bytes / MB).toFixed(0)} MB τ² file (${simulations} simulations) vs its import`,
    median_ms: exported.ms,
    calls_per_s: simulations / (exported.ms / 1000),
    ratio: x,
    baseline: `trajectories.import of the same file: ${ms(imported.ms)}`,
    goal: '≤ ×1.5 the import time',
    met: x <= 1.5,
  });
  tmp.cleanup();
}

void main();
