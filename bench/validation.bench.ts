/**
 * Task validation (issue "Tasks, checks and grading", DESIGN.md §6): the full validator chain —
 * structure, services and records, weights, tool constraints, leakage, grading consistency (the
 * empty run, the reference plan, one call aimed at each prohibited rule, in a fresh environment)
 * and solvability — per task, sequentially on one core:
 *
 *   1. a realistic valid task written by hand (docs/examples/helpdesk-triage.task.json: records
 *      inline, 4 checks, 2 prohibited rules, a 3-step reference plan);
 *   2. the 44 imported Claw-Eval tasks (../shared corpus) with checks derived from task.yaml and their
 *      stored fixture files (no plan: the plan-dependent parts are not applicable), cycled; and
 *      the same with the derivation from task.yaml included, which is what the validation job does.
 *
 * Baseline in the same run, same inputs: the structure validator alone (TaskSpec parse + id and
 * regex checks). Goal: ≥ 500 tasks/s. No assertions: figures only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { deriveTaskSpec } from '../src/main/core/tasks/claw-eval/derive-checks';
import { readClawTask } from '../src/main/core/tasks/claw-eval/read-task';
import { locateTasks } from '../src/main/core/tasks/claw-eval/task-files';
import { structure } from '../src/main/core/validation/structure';
import { validate } from '../src/main/core/validation/validate';
import { emit, header, ms, rate, ratio, REPO_ROOT, table, throughput } from './lib/harness';

const BENCH = 'validation';
const RUNS = Number(process.env.BENCH_TASKS ?? 10_000);
const GOAL = 500;
const NOW = new Date('2026-03-05T09:00:00Z');
const CLAW_ROOT = path.resolve(REPO_ROOT, '../shared/corpora/claw-eval');

type Case = { name: string; full: () => unknown; base: () => unknown; check: () => boolean };
const rows: string[][] = [];

async function measure(c: Case): Promise<void> {
  if (!c.check()) throw new Error(`${c.name}: the validation result is not what this benchmark expects`);
  const base = await throughput(c.base, RUNS);
  const full = await throughput(c.full, RUNS);
  const r = full.lat.median / base.lat.median;
  const met = full.callsPerSec >= GOAL;
  rows.push([
    c.name,
    rate(full.callsPerSec),
    ms(full.lat.median),
    ms(full.lat.p99),
    rate(base.callsPerSec),
    ms(base.lat.median),
    ratio(r),
    met ? 'met' : 'MISSED',
  ]);
  emit({
    bench: BENCH,
    name: c.name,
    median_ms: full.lat.median,
    p99_ms: full.lat.p99,
    calls_per_s: full.callsPerSec,
    ratio: r,
    baseline: `structure validator alone, median ${ms(base.lat.median)}`,
    goal: `≥ ${GOAL}/s`,
    met,
  });
}

async function main(): Promise<void> {
  header('validation: full validator chain per task (one core)');
  const example = JSON.parse(
    fs.readFileSync(path.join(REPO_ROOT, 'docs/examples/helpdesk-triage.task.json'), 'utf8'),
  ) as unknown;
  await measure({
    name: 'hand-written task (plan + 3 consistency runs)',
    full: () => validate(example, [], { now: () => NOW }),
    base: () => structure(example),
    check: () => {
      const r = validate(example);
      return r.valid && r.verdicts.every((v) => v.status === 'pass');
    },
  });

  if (!fs.existsSync(path.join(CLAW_ROOT, 'tasks'))) {
    const why = `no Claw-Eval corpus at ${CLAW_ROOT}`;
    console.log(`imported tasks: skipped: ${why}`);
    emit({
      bench: BENCH,
      name: 'imported Claw-Eval tasks',
      median_ms: NaN,
      ratio: null,
      baseline: 'structure validator alone',
      goal: `≥ ${GOAL}/s`,
      skipped: why,
    });
  } else {
    const tasks = locateTasks(CLAW_ROOT).map((loc) => {
      const t = readClawTask(loc);
      return {
        yaml: t.spec,
        spec: deriveTaskSpec(t.spec).spec,
        fixtures: t.fixtures.map((f) => ({ service: f.service, env: f.env, content: f.content })),
      };
    });
    let i = 0;
    const next = () => tasks[i++ % tasks.length]!;
    await measure({
      name: `${tasks.length} imported tasks (derived checks, stored fixtures)`,
      full: () => {
        const t = next();
        return validate(t.spec, t.fixtures, { now: () => NOW });
      },
      base: () => structure(next().spec),
      check: () =>
        tasks.every((t) =>
          validate(t.spec, t.fixtures, { now: () => NOW }).verdicts.some(
            (v) => v.validator === 'grading_consistency' && v.status === 'not_applicable',
          ),
        ),
    });
    await measure({
      name: `${tasks.length} imported tasks, derivation from task.yaml included (as the job)`,
      full: () => {
        const t = next();
        return validate(deriveTaskSpec(t.yaml).spec, t.fixtures, { now: () => NOW });
      },
      base: () => structure(next().spec),
      check: () => true,
    });
  }
  console.log(`\n${RUNS.toLocaleString('en-US')} validations per figure, sequential\n`);
  console.log(
    table(
      ['inputs', 'tasks/s', 'median', 'p99', 'baseline/s', 'baseline median', 'vs baseline', `goal ≥ ${GOAL}/s`],
      rows,
    ),
  );
}

void main();
