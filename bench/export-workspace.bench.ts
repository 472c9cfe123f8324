/**
 * SFT export from the workspace against the import of the same data (issue 12): a messages JSONL of
 * BENCH_TRAJECTORIES (20,000) trajectories built from the corpus shapes is imported through
 * trajectories.import, then exported through export.sft (TRL, every trajectory admitted, all filters)
 * from that workspace. Each runs as the job in its worker thread (the worker bundled with esbuild from
 * the current source), in a process of its own. Goal: export ≤ 1.5× the import time. No assertions.
 */
import path from 'node:path';
import { createCore } from '../src/main/core';
import { emit, header, ms, ratio, table, tempDir } from './lib/harness';
import { bundleWorker, runJobProcess as run } from './lib/job-process';
import { hasCorpus, writeTrajectoryJsonl } from './lib/trajectory-corpus';

const BENCH = 'export-workspace';
const N = Number(process.env.BENCH_TRAJECTORIES ?? 20_000);
const MB = 1024 * 1024;

async function main() {
  header(`${BENCH}: import then SFT export of ${N.toLocaleString('en-US')} trajectories`);
  if (!hasCorpus) return console.log('skipped: the corpora in ../shared are absent');
  const tmp = tempDir('bench-export-ws-');
  const dir = tmp.dir;
  const file = path.join(dir, 'trajectories.jsonl');
  const { bytes } = writeTrajectoryJsonl(file, N);
  const ws = path.join(dir, 'ws.coworkenv.db');
  await createCore({ workspacePath: ws, watchIntervalMs: 0 }).close();
  const worker = bundleWorker();
  const imported = run('bench/lib/import-run.ts', [ws, file, worker]);
  const exported = run('bench/lib/export-run.ts', [ws, path.join(dir, 'out-trl'), 'trl', worker]);
  const report = exported.result.report as { exported: number; input: number };
  const x = exported.ms / imported.ms;
  console.log(
    table(
      ['step', 'time', 'throughput', 'peak RSS', 'records', 'vs import'],
      [
        [
          'trajectories.import (baseline)',
          ms(imported.ms),
          `${(bytes / MB / (imported.ms / 1000)).toFixed(0)} MB/s`,
          `${imported.maxRssMb.toFixed(0)} MB`,
          `${N}`,
          '×1.00',
        ],
        [
          'export.sft trl from the workspace',
          ms(exported.ms),
          `${(N / (exported.ms / 1000)).toFixed(0)} rec/s`,
          `${exported.maxRssMb.toFixed(0)} MB`,
          `${report.exported} of ${report.input}`,
          ratio(1 / x),
        ],
      ],
    ),
  );
  console.log(`export / import time: ×${x.toFixed(2)} (goal ≤ ×1.5: ${x <= 1.5 ? 'met' : 'missed'})`);
  emit({
    bench: BENCH,
    name: `SFT export (trl) of ${N.toLocaleString('en-US')} workspace trajectories vs their import`,
    median_ms: exported.ms,
    calls_per_s: N / (exported.ms / 1000),
    ratio: x,
    baseline: `trajectories.import of the same data: ${ms(imported.ms)}`,
    goal: '≤ ×1.5 the import time',
    met: x <= 1.5,
  });
  await previewFigures(ws);
  tmp.cleanup();
}

/**
 * The Export page's live preview on the same workspace: the default (a sample of about 500 bodies, the
 * later steps estimated) against reading every body (`maxBodies: null`, the exact preview before).
 */
async function previewFigures(ws: string) {
  const core = await createCore({ workspacePath: ws, watchIntervalMs: 0 });
  const input = { dialect: 'trl', selection: { allUncurated: true } };
  const time = async (extra: object) => {
    const t0 = performance.now();
    const r = await core.dispatch('export.sftPreview', { ...input, ...extra } as never);
    if (!r.ok) throw new Error(r.error.message);
    return { ms: performance.now() - t0, data: r.data as { preview: { report: { exported: number } } } };
  };
  const exact = await time({ maxBodies: null });
  const sampled = await time({});
  const again = await time({});
  await core.close();
  console.log(
    table(
      ['export.sftPreview', 'time', 'exported (preview)'],
      [
        ['every body read (exact, baseline)', ms(exact.ms), `${exact.data.preview.report.exported}`],
        ['default: ~500 bodies, rest estimated', ms(sampled.ms), `≈ ${sampled.data.preview.report.exported}`],
        ['default, again', ms(again.ms), `≈ ${again.data.preview.report.exported}`],
      ],
    ),
  );
  console.log(`sampled preview: ×${(exact.ms / again.ms).toFixed(1)} faster than the exact one`);
}

void main();
