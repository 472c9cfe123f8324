/**
 * Procedural generation (issue 9): candidates for a mix of 40 slots (every scenario, 1–4
 * services, en/zh, three difficulties), sequentially on one core:
 *
 *   1. generation alone (draftOne: the world, the kits, the TaskSpec);
 *   2. generation + full validation + the guided repair round when a candidate fails — what the
 *      generation job does per candidate, measured as valid tasks per second (goal ≥ 500/s);
 *   3. 10,000 tasks through the generation.run job in a temporary workspace (worker thread,
 *      batches committed with their resume cursor): wall time, tasks/s and the process RSS at each
 *      tenth of the run — constant memory means the RSS stops growing once the run is under way.
 *
 * Baseline in the same run, same candidates: the full validator chain alone on pre-generated
 * candidates. Rates are given twice: per wall-clock second, and per CPU second of this process
 * (process.cpuUsage, GC threads included) — "one core" on a shared machine, where other work
 * takes the wall clock; the goal is judged on the CPU rate. No assertions: figures only. BENCH_TASKS sets the figures'
 * sample (default 5,000), BENCH_JOB_TASKS the job's size (default 10,000; 0 skips it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createCore } from '../src/main/core';
import { validatedCandidate } from '../src/main/core/generation/validated';
import { checkSlot, draftOne } from '../src/main/core/generation/procedural/generate';
import type { GenSlot } from '../src/main/core/generation/procedural/families/family';
import { validate } from '../src/main/core/validation/validate';
import { SCENARIOS, SERVICE_IDS } from '../src/shared/contract/entities/slot';
import { emit, header, ms, rate, ratio, REPO_ROOT, table, tempDir, throughput } from './lib/harness';

const BENCH = 'generation';
const RUNS = Number(process.env.BENCH_TASKS ?? 5_000);
const JOB_TASKS = Number(process.env.BENCH_JOB_TASKS ?? 10_000);
const GOAL = 500;

const SLOTS: (GenSlot & { id: number })[] = Array.from({ length: 40 }, (_, i) => {
  const scenario = SCENARIOS[i % 5]!;
  const n = scenario === 'single_service' ? 1 : scenario === 'cross_service' ? 2 + (i % 3) : 1 + (i % 4);
  const raw = {
    id: i + 1,
    services: Array.from({ length: n }, (_, k) => SERVICE_IDS[(i * 3 + k * 5) % 13]),
    scenario,
    difficulty: (['easy', 'medium', 'hard'] as const)[i % 3],
    language: i % 2 ? 'zh' : 'en',
    reference_date: '2026-03-09',
  };
  return { ...checkSlot(raw).slot!, id: i + 1 };
});

const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
const NOW = () => '2026-03-09T10:00:00.000Z';

/** throughput() plus the calls per CPU second it took (its warm-up calls included in both counts). */
async function measured(fn: () => unknown) {
  const c0 = process.cpuUsage();
  const t = await throughput(fn, RUNS);
  const c = process.cpuUsage(c0);
  return { ...t, cpuPerSec: (RUNS + Math.ceil(RUNS / 10)) / ((c.user + c.system) / 1e6) };
}

async function figures(rows: string[][]): Promise<void> {
  let n = 0;
  const drafts = Array.from({ length: 600 }, (_, i) => draftOne(SLOTS[i % SLOTS.length]!, 1, i));
  const base = await measured(() => validate(drafts[n++ % drafts.length]));
  n = 0;
  const gen = await measured(() => draftOne(SLOTS[n % SLOTS.length]!, 2, n++));
  n = 0;
  let accepted = 0;
  let made = 0;
  const full = await measured(() => {
    const i = n++;
    made++;
    const r = validatedCandidate(i, (attempt, steer) => draftOne(SLOTS[i % SLOTS.length]!, 3, i, attempt, steer), NOW);
    if (r.spec) accepted++;
  });
  const share = accepted / made;
  const row = (name: string, t: typeof base, keep: number, goal = false) => {
    const r = t.lat.median / base.lat.median;
    const cpu = t.cpuPerSec * keep;
    const verdict = goal ? (cpu >= GOAL ? 'met' : 'MISSED') : '';
    rows.push([name, rate(t.callsPerSec * keep), rate(cpu), ms(t.lat.median), ms(t.lat.p99), ratio(r), verdict]);
    emit({
      bench: BENCH,
      name,
      median_ms: t.lat.median,
      p99_ms: t.lat.p99,
      calls_per_s: cpu,
      ratio: r,
      baseline:
        `validation alone, median ${ms(base.lat.median)}; rates per CPU second (wall: ` +
        `${rate(t.callsPerSec * keep)})`,
      ...(goal ? { goal: `≥ ${GOAL} valid tasks per CPU second`, met: cpu >= GOAL } : {}),
    });
  };
  row('baseline: full validation of a generated candidate', base, 1);
  row('generation alone (draftOne)', gen, 1);
  row(`generation + validation + repair (${accepted}/${made} valid)`, full, share, true);
}

async function jobRun(): Promise<void> {
  if (!JOB_TASKS) return void console.log('job: skipped (BENCH_JOB_TASKS=0)');
  const tmp = tempDir('bench-generation-');
  const workspacePath = path.join(tmp.dir, 'bench.coworkenv.db');
  const core = createCore({
    workspacePath,
    watchIntervalMs: 0,
    workerEntry: path.join(REPO_ROOT, 'test/helpers/ts-worker.cjs'),
  });
  try {
    const perSlot = Math.ceil(JOB_TASKS / SLOTS.length);
    const created = await core.dispatch('plan.create', {
      rows: SLOTS.map((s) => ({ ...s, id: undefined, family: 'bench', category: 'ops', target_count: perSlot })),
    });
    if (!created.ok) throw new Error(JSON.stringify(created.error));
    const rss: { done: number; rss: number }[] = [{ done: 0, rss: process.memoryUsage().rss }];
    let next = 0.1;
    const off = core.events.on((e) => {
      if (e.event !== 'job.progress' || !e.payload.total) return;
      if (e.payload.done / e.payload.total >= next) {
        rss.push({ done: e.payload.done, rss: process.memoryUsage().rss });
        next += 0.1;
      }
    });
    const t0 = performance.now();
    const started = await core.dispatch('generation.run', { slots: 'all', perSlot, seed: 1 });
    if (!started.ok) throw new Error(JSON.stringify(started.error));
    const job = await core.dispatch('jobs.wait', {
      id: (started.data as { jobId: string }).jobId,
      timeoutMs: 3_600_000,
    });
    const secs = (performance.now() - t0) / 1000;
    off();
    if (!job.ok) throw new Error(JSON.stringify(job.error));
    const j = job.data as { state: string; done: number; result: { validFirstTime: number; repaired: number } };
    const valid = j.result.validFirstTime + j.result.repaired;
    const size = fs.statSync(workspacePath).size;
    console.log(
      `\njob: ${j.state}, ${j.done.toLocaleString('en-US')} candidates, ${valid.toLocaleString('en-US')} valid ` +
        `tasks stored in ${secs.toFixed(1)} s (${rate(valid / secs)}), workspace ${mb(size)}`,
    );
    console.log(
      table(
        ['candidates done', 'process RSS'],
        rss.map((r) => [r.done.toLocaleString('en-US'), mb(r.rss)]),
      ),
    );
    const peak = Math.max(...rss.map((r) => r.rss));
    const tenth = rss.find((r) => r.done > 0)?.rss ?? rss[0]!.rss;
    const half = rss.find((r) => r.done >= j.done / 2)?.rss ?? peak;
    console.log(
      `RSS growth over the second half of the run: ${mb(rss.at(-1)!.rss - half)} (first tenth → end: ` +
        `${mb(rss.at(-1)!.rss - tenth)})`,
    );
    emit({
      bench: BENCH,
      name: `job: ${j.done.toLocaleString('en-US')} candidates through generation.run (worker, batches of 20)`,
      median_ms: (secs * 1000) / j.done,
      calls_per_s: valid / secs,
      ratio: peak / tenth,
      baseline:
        `RSS after the first tenth ${mb(tenth)}, at half ${mb(half)}, peak ${mb(peak)} (ratio = peak ÷ ` +
        `first tenth)`,
    });
  } finally {
    await core.close();
    tmp.cleanup();
  }
}

async function main(): Promise<void> {
  header('generation: procedural candidates, validated and repaired (one core)');
  const rows: string[][] = [];
  await figures(rows);
  console.log(`\n${RUNS.toLocaleString('en-US')} candidates per figure, 40 slots, sequential\n`);
  console.log(
    table(['figure', 'tasks/s (wall)', 'tasks/CPU-s', 'median', 'p99', 'vs baseline', `goal ≥ ${GOAL}/CPU-s`], rows),
  );
  await jobRun();
}

void main();
