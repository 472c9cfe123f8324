/**
 * Reference-agent runs (issue 10): trajectories/s of a whole runs.start job — a fresh in-process
 * environment per trajectory, the agent loop, the shared grader, and storage in the v2 tables (row,
 * body, search text) committed in batches by the job's worker thread — on 50 procedurally generated
 * tasks of every scenario family (5–9 tool calls each).
 *
 *   1. baseline: grading alone (the shared grader over a stored reference trajectory, RunRecord included);
 *   2. one episode in this thread (environment + loop + grading, nothing stored);
 *   3. the runs.start job end to end (dispatch → job done; worker start included), clean and with
 *      perturbations (10 % skip, 10 % wrong argument, 20 % prohibited call).
 *
 * Goal: ≥ 2,000 trajectories/s for (3). The job worker is bundled with esbuild from the current
 * source, as electron-vite bundles out/main/job-worker.js (tsx's on-the-fly compiling is not timed).
 * Knobs: BENCH_RUN_TRIALS (default 200 → 10,000 trajectories per run); BENCH_RUN_BEFORE=<git ref>
 * also runs both jobs with the job worker bundled from that commit's source, alternating with this
 * source's, so a change is measured before and after in the same run. No assertions.
 *
 * Judge (issue 19 item 2): the same job on 50 judge-scored tasks (half their weight an llm_judge check), perturbed,
 * without a judge (checks pending: the baseline) vs with a judge on loopback (the scripted OpenAI server, answering at
 * once) — every request new, then the same run again with every verdict cached. BENCH_JUDGE_TRIALS (default 20).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import esbuild from 'esbuild';
import { runEpisode } from '../src/main/core/agents/agent-loop';
import { referenceAgent } from '../src/main/core/agents/reference-agent';
import { scriptedUser } from '../src/main/core/agents/scripted-user';
import { createCore } from '../src/main/core';
import { grade } from '../src/main/core/grading/grade';
import { runRecordOf } from '../src/main/core/grading/run-record';
import type { RunResult } from '../src/shared/contract/entities/run';
import { generatedTasks } from '../test/helpers/generated-tasks';
import { judgedTasks, verdict } from '../test/helpers/judged-tasks';
import { startScriptedOpenAI } from '../test/helpers/scripted-openai';
import { storeTasks } from '../test/helpers/run-workspace';
import { emit, header, ms, rate, ratio, REPO_ROOT, table, tempDir, throughput } from './lib/harness';

const BENCH = 'runs';
const TRIALS = Number(process.env.BENCH_RUN_TRIALS ?? 200);
const GOAL = 2_000;
const BEFORE = process.env.BENCH_RUN_BEFORE;
const JUDGE_TRIALS = Number(process.env.BENCH_JUDGE_TRIALS ?? 20);

/** The job worker bundled from `root`'s src (the repository, or a commit's source under out/bench-cache). */
function bundleWorker(root = REPO_ROOT, name = 'runs-job-worker.js'): string {
  const outfile = path.join(REPO_ROOT, 'out/bench-cache', name);
  esbuild.buildSync({
    // The worker entry moved up to src/main/ (issue 22); an older revision (BENCH_RUN_BEFORE) has it in core/jobs/.
    entryPoints: [
      ['src/main/job-worker.ts', 'src/main/core/jobs/job-worker.ts']
        .map((p) => path.join(root, p))
        .find((p) => fs.existsSync(p))!,
    ],
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

/** `ref`'s src extracted inside the repository (so its imports find node_modules), its worker bundled. */
function bundleWorkerAt(ref: string): string {
  const dir = path.join(REPO_ROOT, 'out/bench-cache/runs-before');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const tar = execFileSync('git', ['archive', ref, 'src'], { cwd: REPO_ROOT, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return bundleWorker(dir, 'runs-job-worker-before.js');
}

/**
 * CPU time per thread of this process while `work` runs (Linux: /proc/self/task, sampled every 50 ms,
 * since a worker thread's entry goes when it exits): the busiest thread's CPU (and all CPU over the
 * cores) bound the wall time the job could take on idle cores, which this shared machine lacks.
 */
async function threadCpu<T>(work: Promise<T>): Promise<{ result: T; busiest: number; threads: number }> {
  const TICK = 100; // USER_HZ on Linux
  const seen = new Map<string, number>();
  const base = new Map<string, number>();
  const sample = (into: Map<string, number>) => {
    let tids: string[];
    try {
      tids = fs.readdirSync('/proc/self/task');
    } catch {
      return;
    }
    for (const tid of tids)
      try {
        const f = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        into.set(tid, (Number(f[11]) + Number(f[12])) / TICK); // utime, stime (fields 14, 15)
      } catch {
        // the thread ended meanwhile
      }
  };
  sample(base);
  const timer = setInterval(() => sample(seen), 50);
  try {
    const result = await work;
    sample(seen);
    const used = [...seen].map(([tid, s]) => s - (base.get(tid) ?? 0)).filter((s) => s > 0.05);
    return { result, busiest: Math.max(0, ...used), threads: used.length };
  } finally {
    clearInterval(timer);
  }
}

async function main() {
  header('reference-agent runs');
  const tasks = generatedTasks(50);
  const calls = tasks.reduce((n, t) => n + (t.reference_plan?.length ?? 0), 0);
  console.log(`${tasks.length} generated tasks, ${(calls / tasks.length).toFixed(1)} plan steps on average`);
  const episode = (i: number) =>
    runEpisode({ spec: tasks[i % tasks.length]!, fixtures: [], agent: referenceAgent(), user: scriptedUser() });
  const stored = await Promise.all(tasks.map((_, i) => episode(i)));

  let sink = 0;
  let i = 0;
  const g0 = process.cpuUsage();
  const grading = await throughput(() => {
    const k = i++ % tasks.length;
    sink += grade(tasks[k]!, runRecordOf(stored[k]!.trajectory)).score;
  }, 20_000);
  const gcpu = process.cpuUsage(g0);
  const gradingCpu = 22_000 / ((gcpu.user + gcpu.system) / 1e6);
  let j = 0;
  const inThread = await throughput(() => episode(j++).then((e) => (sink += e.grade.score)), 5_000);

  const worker = bundleWorker();
  const tmp = tempDir('runs-bench-');
  const rows: string[][] = [
    [
      'grading alone (baseline)',
      `${rate(grading.callsPerSec)} (${rate(gradingCpu)} CPU)`,
      ms(grading.lat.median),
      '×1.00',
    ],
    [
      'one episode in this thread',
      rate(inThread.callsPerSec),
      ms(inThread.lat.median),
      ratio(grading.callsPerSec / inThread.callsPerSec),
    ],
  ];
  try {
    const variants = [{ label: '', worker }];
    if (BEFORE) variants.unshift({ label: ` [before: ${BEFORE}]`, worker: bundleWorkerAt(BEFORE) });
    const cores = variants.map((v, n) => {
      const workspacePath = path.join(tmp.dir, `bench-${n}.coworkenv.db`);
      const core = createCore({ workspacePath, watchIntervalMs: 0, workerEntry: v.worker, seedDemo: false });
      storeTasks(workspacePath, tasks);
      return core;
    });
    const perturbed = { skip_step: 0.1, wrong_argument: 0.1, prohibited_call: 0.2 };
    for (const [name, perturbations] of [
      ['clean', undefined],
      ['perturbed', perturbed],
    ] as const)
      for (const [n, v] of variants.entries()) {
        const core = cores[n]!;
        const t0 = performance.now();
        const c0 = process.cpuUsage(); // this process: the job's worker thread included
        const job0 = async () => {
          const started = await core.dispatch('runs.start', {
            agent: { kind: 'reference', ...(perturbations ? { perturbations } : { clean: true }) },
            trials: TRIALS,
            concurrency: 4,
          });
          if (!started.ok) throw new Error(started.error.message);
          const jobId = (started.data as { jobId: string }).jobId;
          return core.dispatch('jobs.wait', { id: jobId, timeoutMs: 3_600_000 });
        };
        const { result: done, busiest, threads } = await threadCpu(job0());
        const elapsed = performance.now() - t0;
        const cpu = process.cpuUsage(c0);
        const cpuSec = (cpu.user + cpu.system) / 1e6;
        const perCpuSec = (r0: number) => r0 / cpuSec;
        if (!done.ok) throw new Error(done.error.message);
        const job = done.data as { state: string; error: string | null; result: RunResult };
        if (job.state !== 'done') throw new Error(`run ${job.state}: ${job.error}`);
        const r = job.result;
        const perSec = (r.stored / elapsed) * 1000;
        rows.push([
          `runs.start job, ${name}${v.label} (${r.stored.toLocaleString('en-US')} stored, ` +
            `pass rate ${(100 * r.pass_rate).toFixed(1)}%, mean score ${(r.mean_score ?? 0).toFixed(4)})`,
          `${rate(perSec)} (${rate(perCpuSec(r.stored))} CPU; idle cores ≤ ` +
            `${busiest ? rate(r.stored / Math.max(busiest, cpuSec / os.availableParallelism())) : '–'}, ` +
            `${threads} threads)`,
          ms(elapsed),
          ratio(grading.callsPerSec / perSec),
        ]);
        emit({
          bench: BENCH,
          name: `runs.start reference agent, ${name}${v.label} (${tasks.length} tasks × ${TRIALS} trials)`,
          median_ms: elapsed,
          calls_per_s: perSec,
          ratio: grading.callsPerSec / perSec,
          baseline: 'grading alone',
          goal: `≥ ${GOAL.toLocaleString('en-US')} trajectories/s`,
          met: perSec >= GOAL,
        });
      }
    for (const core of cores) await core.close();
    rows.push(...(await judgeRuns(worker, tmp.dir, grading.callsPerSec)));
  } finally {
    tmp.cleanup();
  }
  console.log(`\n${table(['what', 'trajectories/s (per CPU-second)', 'median / total', 'cost vs grading'], rows)}`);
  console.log('per CPU-second: trajectories over the CPU time of this process (all threads) — steadier under load');
  console.log(
    'idle cores: trajectories over max(CPU time of the busiest thread, all CPU time / cores) (Linux): the rate ' +
      'the job could reach on cores of its own, at most',
  );
  emit({
    bench: BENCH,
    name: 'grading a reference trajectory (baseline)',
    median_ms: grading.lat.median,
    calls_per_s: grading.callsPerSec,
    ratio: 1,
    baseline: 'itself',
  });
  if (sink < 0) console.log(sink);
}

/** Runs of judge-scored tasks: no judge (pending), a judge on loopback (all asked), the same again (all cached). */
async function judgeRuns(worker: string, dir: string, gradingPerSec: number): Promise<string[][]> {
  const tasks = judgedTasks(50);
  const judge = await startScriptedOpenAI({ script: () => verdict(1) });
  const workspacePath = path.join(dir, 'bench-judge.coworkenv.db');
  const core = createCore({ workspacePath, watchIntervalMs: 0, workerEntry: worker, seedDemo: false });
  storeTasks(workspacePath, tasks);
  const call = async (name: string, input: unknown) => {
    const r = await core.dispatch(name as never, input as never);
    if (!r.ok) throw new Error(r.error.message);
    return r.data as Record<string, unknown>;
  };
  const rows: string[][] = [];
  let baseline = 0;
  const perturbations = { skip_step: 0.1, wrong_argument: 0.1, prohibited_call: 0.2 };
  const variants = [
    ['no judge (pending)', false],
    ['judge on loopback, new requests', true],
    ['judge on loopback, all cached', true],
  ] as const;
  try {
    for (const [n, [label, judged]] of variants.entries()) {
      if (judged && !baseline) throw new Error('the baseline runs first');
      if (judged && n === 1) {
        await call('endpoints.add', {
          name: 'judge',
          base_url: judge.baseUrl,
          model: 'bench-judge',
          key_source: 'none',
        });
        await call('grading.setJudge', { endpoint: 'judge' });
      }
      const asked0 = judge.chatRequests().length;
      const t0 = performance.now();
      const { jobId } = (await call('runs.start', {
        agent: { kind: 'reference', perturbations },
        trials: JUDGE_TRIALS,
        concurrency: 4,
        // The cached run repeats the judged run's traces: the same seed, a collection of its own.
        collection: `judge-${n}`,
      })) as { jobId: string };
      const job = (await call('jobs.wait', { id: jobId, timeoutMs: 3_600_000 })) as {
        state: string;
        error: string | null;
        result: RunResult;
      };
      const elapsed = performance.now() - t0;
      if (job.state !== 'done') throw new Error(`run ${job.state}: ${job.error}`);
      const r = job.result;
      const perSec = (r.stored / elapsed) * 1000;
      if (!judged) baseline = perSec;
      const sent = judge.chatRequests().slice(asked0);
      const asked = sent.length;
      // Lanes judging identical traces at once may both ask: distinct prompts say how often that happened.
      const distinct = new Set(sent.map((q) => q.body?.messages[1]?.content)).size;
      rows.push([
        `judge-scored tasks, ${label} (${r.stored.toLocaleString('en-US')} stored, ${r.judge_pending} pending, ` +
          `${asked} judge calls, ${distinct} distinct)`,
        rate(perSec),
        ms(elapsed),
        `${ratio(gradingPerSec / perSec)}; ×${(baseline / perSec).toFixed(2)} vs no judge`,
      ]);
      emit({
        bench: BENCH,
        name: `runs.start judge-scored tasks, ${label} (${tasks.length} tasks × ${JUDGE_TRIALS} trials)`,
        median_ms: elapsed,
        calls_per_s: perSec,
        ratio: baseline / perSec,
        baseline: 'the same run without a judge',
      });
    }
  } finally {
    await core.close();
    await judge.close();
  }
  return rows;
}

void main();
