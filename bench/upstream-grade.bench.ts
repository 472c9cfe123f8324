/**
 * Upstream grading at volume (issue 19 item 6): N Claw-Eval traces of the corpus tasks (built from the recorded
 * goldens as test/helpers/claw-traces.ts does: the full run, and the same run without tool calls), graded by each
 * task's real grader.py from the Claw-Eval checkout with a stub judge. Baseline: one Python process per trace
 * (runUpstreamGrader, the old path: interpreter, claw_eval import and grader.py load every time), on the first
 * UPSTREAM_BASELINE traces; then the same traces and all N through UpstreamBatch with 1 and 2 processes. Prints
 * traces/s, the ratio to the baseline, and whether every batch answer equals the per-process one.
 *
 *   CLAW_EVAL_ROOT      the checkout (default /work/claw-eval-9365e1a when it exists)
 *   UPSTREAM_TRACES     N (default 200)
 *   UPSTREAM_BASELINE   traces graded one process each (default 50: the baseline's rate is per trace)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeTrace } from '../src/main/core/traces';
import { UpstreamBatch } from '../src/main/core/upstream-grader/upstream-batch';
import { runUpstreamGrader, type UpstreamGrade } from '../src/main/core/upstream-grader/run-upstream';
import { synthTrajectory } from '../test/helpers/claw-traces';
import { goldenTaskIds } from '../test/helpers/goldens';
import { emit, header, ratio, table, tempDir } from './lib/harness';

const BENCH = 'upstream-grade';
const DEFAULT_ROOT = '/work/claw-eval-9365e1a';
const JUDGE = { stub_score: 1 };

function skip(why: string): void {
  console.log(`skipped: ${why}`);
  emit({ bench: BENCH, name: 'batch traces/s', median_ms: Number.NaN, ratio: null, baseline: '', skipped: why });
}

function pythonMissing(): boolean {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return false;
  } catch {
    return true;
  }
}

type Trace = { taskDir: string; tracePath: string };

function buildTraces(root: string, n: number, dir: string): Trace[] {
  const graderOf = (id: string) => path.join(root, 'tasks', id, 'grader.py');
  const withGrader = goldenTaskIds().filter((id) => fs.existsSync(graderOf(id)));
  // A grader that calls judge.client itself retries the stub judge (which has no client) with back-off for minutes:
  // it would measure sleeps, not grading.
  const tasks = withGrader.filter((id) => !fs.readFileSync(graderOf(id), 'utf8').includes('judge.client'));
  const left = withGrader.filter((id) => !tasks.includes(id));
  if (left.length) console.log(`left out (their grader.py calls judge.client, the stub has none): ${left.join(', ')}`);
  const at = { now: () => new Date('2026-03-26T09:00:00Z') };
  const variants = tasks.flatMap((id) => [
    { id, text: writeTrace(synthTrajectory(id), at) },
    { id, text: writeTrace(synthTrajectory(id, { keep: () => false }), at) },
  ]);
  console.log(`${tasks.length} tasks with a grader.py, ${variants.length} distinct traces, cycled to ${n}`);
  return Array.from({ length: n }, (_, i) => {
    const v = variants[i % variants.length]!;
    const tracePath = path.join(dir, `${i}.jsonl`);
    fs.writeFileSync(tracePath, v.text);
    return { taskDir: path.join(root, 'tasks', v.id), tracePath };
  });
}

async function perProcess(root: string, traces: Trace[]) {
  const t0 = performance.now();
  const out: UpstreamGrade[] = [];
  for (const t of traces) out.push(await runUpstreamGrader({ root, ...t, judge: JUDGE }));
  return { out, ms: performance.now() - t0 };
}

async function batched(root: string, traces: Trace[], workers: number) {
  const t0 = performance.now();
  const batch = new UpstreamBatch({ root, judge: JUDGE, workers });
  try {
    const out = await Promise.all(traces.map((t) => batch.grade(t.taskDir, t.tracePath)));
    return { out, ms: performance.now() - t0 };
  } finally {
    await batch.close();
  }
}

async function main() {
  header('upstream grader.py: one process per trace vs long-lived processes');
  const root = process.env.CLAW_EVAL_ROOT ?? (fs.existsSync(DEFAULT_ROOT) ? DEFAULT_ROOT : undefined);
  if (!root || !fs.existsSync(path.join(root, 'src/claw_eval'))) return skip('no Claw-Eval checkout');
  if (pythonMissing()) return skip('python3 is not installed');
  const n = Number(process.env.UPSTREAM_TRACES ?? 200);
  const nBase = Math.min(n, Number(process.env.UPSTREAM_BASELINE ?? 50));
  const tmp = tempDir('coworkenv-upstream-bench-');
  try {
    const traces = buildTraces(root, n, tmp.dir);
    if (traces.length === 0) return skip('no golden task has a grader.py in the checkout');
    const base = await perProcess(root, traces.slice(0, nBase));
    const baseRate = (nBase / base.ms) * 1000;
    const failed = base.out.filter((g) => !g.ok);
    if (failed.length) console.log(`per-process failures: ${failed.length} (first: ${JSON.stringify(failed[0])})`);
    const rows: string[][] = [
      ['per process (baseline)', String(nBase), (base.ms / 1000).toFixed(1), fmt(baseRate), '×1'],
    ];
    for (const workers of [1, 2]) {
      const same = await batched(root, traces.slice(0, nBase), workers);
      const equal = same.out.filter((g, i) => JSON.stringify(g) === JSON.stringify(base.out[i])).length;
      console.log(`batch of ${workers}: ${equal}/${nBase} answers equal to the per-process ones`);
      const all = await batched(root, traces, workers);
      const rate = (n / all.ms) * 1000;
      rows.push([
        `batch, ${workers} process(es)`,
        String(n),
        (all.ms / 1000).toFixed(1),
        fmt(rate),
        ratio(rate / baseRate),
      ]);
      emit({
        bench: BENCH,
        name: `batch ${workers} proc traces/s`,
        median_ms: all.ms / n,
        calls_per_s: rate,
        ratio: rate / baseRate,
        baseline: `one process per trace (${fmt(baseRate)} traces/s)`,
      });
    }
    console.log(table(['mode', 'traces', 'seconds', 'traces/s', 'ratio'], rows));
  } finally {
    tmp.cleanup();
  }
}

const fmt = (v: number) => v.toFixed(v < 10 ? 2 : 1);

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
