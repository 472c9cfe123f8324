/**
 * SFT export (issue 12): 100,000 trajectories built from the corpus shapes (τ-bench, τ²-bench and
 * Claw-Eval runs, cycled; each record's body is JSON text parsed when the exporter asks for it, as a
 * workspace read would), through every filter of formats.md §6 and each dialect's render, lint and
 * writer. Per dialect: wall time, peak RSS (each run in its own process, so maxRSS is that run's),
 * and the files' size. The record mix: 90 % pass the thresholds, 5 % below, 3 % UNSOLVABLE,
 * 2 % duplicates, 8 % TRIVIAL (one kept per prefix).
 *
 * Baseline in the same run, same records: the bare import cost, JSON.parse + JSON.stringify of
 * every body. Goal (issue): export ≤ 1.5× that. Constant memory: the same export of 25,000 records
 * is run too, and its peak RSS printed beside the 100,000 one. No assertions: figures only.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Trajectory } from '../src/shared/contract/entities/trajectory';
import { exportSft, type SftRecord } from '../src/main/core/export/sft';
import { dumpsCompact, type PyValue } from '../src/main/core/py/pyjson';
import { emit, header, ratio, REPO_ROOT, table, tempDir } from './lib/harness';

const BENCH = 'export-sft';
const N = Number(process.env.BENCH_RECORDS ?? 100_000);
const GOAL = 1.5;
const SHARED = path.resolve(process.env.COWORKENV_SHARED ?? path.resolve(REPO_ROOT, '../shared'));
const DIALECTS = ['trl', 'openai', 'llamafactory', 'verl'] as const;
type Job = 'baseline' | (typeof DIALECTS)[number];
/**
 * Wall time, and CPU time (user + system) of this process: the ratio uses CPU time, which other work on a shared
 * machine disturbs far less.
 */
type Result = {
  job: Job;
  n: number;
  ms: number;
  cpuMs: number;
  rssMb: number;
  bytes: number;
  exported: number;
  reasons?: string;
};
const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;

/** The corpus trajectories as stored bodies (compact JSON text), with their rewards. */
async function templates(): Promise<{ text: string; taskId: string }[]> {
  const h = await import('../test/helpers/sft-corpus');
  const all: { t: Trajectory; taskId: string }[] = [
    ...h.tauBenchTrajectories(),
    ...h.tau2Trajectories(),
    ...h.clawTrajectories().map((t) => ({ t, taskId: t.task_id })),
  ];
  return all.map(({ t, taskId }) => ({ text: dumpsCompact(t as unknown as PyValue), taskId }));
}

function records(n: number, tpl: { text: string; taskId: string }[]): Iterable<SftRecord> {
  return {
    *[Symbol.iterator]() {
      for (let i = 0; i < n; i++) {
        const k = i % tpl.length;
        const round = Math.floor(i / tpl.length);
        const p = i % 100;
        yield {
          recordId: `r${i}`,
          // 2 % repeat the previous record's task and trial: the later import wins.
          taskId: `${tpl[p < 2 && i > 0 ? (i - 1) % tpl.length : k]!.taskId}#${p < 2 && i > 0 ? i - 1 : i}`,
          trial: 0,
          reward: p >= 2 && p < 7 ? 0.3 : 0.9,
          bucket: p >= 7 && p < 10 ? 'UNSOLVABLE' : p >= 10 && p < 18 ? 'TRIVIAL' : 'KEEP',
          taskPrefix: p >= 10 && p < 18 ? `prefix-${Math.floor(i / 1000)}` : null,
          lineage: { runId: `run-${round}`, trajectoryId: i },
          trajectory: () => JSON.parse(tpl[k]!.text) as Trajectory,
        };
      }
    },
  };
}

/** Runs one job in this (child) process and answers its figures. */
async function runJob(job: Job, n: number): Promise<Result> {
  const tpl = await templates();
  const recs = records(n, tpl);
  if (job === 'baseline') {
    let bytes = 0;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) bytes += JSON.stringify(JSON.parse(tpl[i % tpl.length]!.text)).length;
    const ms = performance.now() - t0;
    const cpu = cpuMs(process.cpuUsage(c0));
    return { job, n, ms, cpuMs: cpu, rssMb: process.resourceUsage().maxRSS / 1024, bytes, exported: n };
  }
  const tmp = tempDir('coworkenv-bench-sft-');
  try {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    // The render check has its own bench (render-lint): this one keeps measuring selection, render and writing.
    const options = { renderCheck: false };
    const res = exportSft({ records: recs, dialect: job, outDir: path.join(tmp.dir, job), options });
    const ms = performance.now() - t0;
    const cpu = cpuMs(process.cpuUsage(c0));
    const bytes =
      res.files.reduce((a, f) => a + f.bytes, 0) + fs.statSync(path.join(tmp.dir, job, 'manifest.json')).size;
    const reasons = Object.entries(res.report.rejections)
      .map(([k, v]) => `${k} ${v.count}`)
      .join(', ');
    return {
      job,
      n,
      ms,
      cpuMs: cpu,
      rssMb: process.resourceUsage().maxRSS / 1024,
      bytes,
      exported: res.report.exported,
      reasons,
    };
  } finally {
    tmp.cleanup();
  }
}

function inChild(job: Job, n: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['--job', job, String(n)], {
      execArgv: process.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (m) => resolve(m as Result));
    child.once('exit', (code) => code && reject(new Error(`${job} exited with ${code}`)));
  });
}

const mb = (b: number) => `${(b / 1e6).toFixed(0)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  header(
    `export-sft: ${N.toLocaleString('en-US')} trajectories, all filters, per dialect (each run in its own process)`,
  );
  if (!fs.existsSync(path.join(SHARED, 'corpora/trajectories'))) {
    const why = `no corpora at ${SHARED} (set COWORKENV_SHARED)`;
    console.log(`skipped: ${why}`);
    emit({ bench: BENCH, name: 'export', median_ms: Number.NaN, ratio: null, baseline: '', skipped: why });
    return;
  }
  const rows: string[][] = [];
  let reasonsOf = '';
  for (const d of DIALECTS) {
    // A baseline next to each dialect: the machine's load drifts over a run of several minutes.
    const base = await inChild('baseline', N);
    const r = await inChild(d, N);
    reasonsOf ||= r.reasons ?? '';
    const small = await inChild(d, N / 4);
    const q = r.cpuMs / base.cpuMs;
    rows.push(
      [
        `  baseline: JSON.parse + JSON.stringify`,
        s(base.ms),
        s(base.cpuMs),
        '×1.00',
        `${base.rssMb.toFixed(0)} MB`,
        '',
        '',
        '',
      ],
      [
        d,
        s(r.ms),
        s(r.cpuMs),
        ratio(q),
        `${r.rssMb.toFixed(0)} MB`,
        `${small.rssMb.toFixed(0)} MB`,
        mb(r.bytes),
        r.exported.toLocaleString('en-US'),
      ],
    );
    emit({
      bench: BENCH,
      name:
        `${d} · ${N.toLocaleString('en-US')} records, CPU time (wall ${s(r.ms)}; peak RSS ` +
        `${r.rssMb.toFixed(0)} MB, at ${(N / 4).toLocaleString('en-US')}: ${small.rssMb.toFixed(0)} MB)`,
      median_ms: r.cpuMs,
      ratio: q,
      baseline: `JSON.parse + JSON.stringify of the same bodies, CPU ${s(base.cpuMs)} (wall ${s(base.ms)})`,
      goal: `≤ ×${GOAL} import`,
      met: q <= GOAL,
    });
  }
  console.log(`rejections (trl run): ${reasonsOf}`);
  console.log(
    table(['run', 'wall', 'CPU', 'CPU vs baseline', 'peak RSS', `RSS at ${N / 4}`, 'files', 'exported'], rows),
  );
}

if (process.argv[2] === '--job') {
  void runJob(process.argv[3] as Job, Number(process.argv[4])).then((r) => {
    process.send!(r);
    process.disconnect();
  });
} else
  void main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
