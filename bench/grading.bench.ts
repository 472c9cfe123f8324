/**
 * Grading from stored runs, and Claw-Eval trace throughput, on corpus tasks:
 *
 *   1. grade a stored trajectory (a realistic 13–21-dispatch run of a corpus task, built from the
 *      recorded goldens: dispatches with their bodies, the tool-result messages, the final answer,
 *      the services' audits) against the task's checks derived from its task.yaml: RunRecord from the
 *      trajectory (dispatches, last assistant text, last audit per service minus `calls`) + the
 *      shared grader. Tasks with only deterministic checks and tasks with llm_judge checks (not
 *      graded without a judge, so cheaper) are both measured. Baseline in the same run: one pass
 *      over the dispatches counting errors.
 *   2. trace parse (readTrace: JSON with Python floats, zod per event, the trajectory) and write
 *      (writeTrace) in lines/s and MB/s. Baseline: JSON.parse of every line.
 *
 * Goal (issue "Tasks, checks and grading"): grading ≥ 10,000 trajectories/s on one core. No
 * assertions: figures only. Without ../shared it prints `skipped: <reason>`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { grade } from '../src/main/core/grading/grade';
import { deriveTaskSpec } from '../src/main/core/tasks/claw-eval/derive-checks';
import { readClawTask } from '../src/main/core/tasks/claw-eval/read-task';
import { locateTasks } from '../src/main/core/tasks/claw-eval/task-files';
import { runRecordOf } from '../src/main/core/grading/run-record';
import { readTrace, writeTrace } from '../src/main/core/traces';
import { readTraceEvents } from '../src/main/core/traces/trace-read';
import { synthTrajectory } from '../test/helpers/claw-traces';
import { emit, header, ms, rate, ratio, table, throughput } from './lib/harness';
import { CLAW_ROOT, hasGoldens } from './lib/claw-tasks';

const BENCH = 'grading';
const N = Number(process.env.BENCH_GRADES ?? 50_000);
const PARSES = Number(process.env.BENCH_PARSES ?? 500);
const GOAL = 10_000;
const TASKS = [
  'T006_email_reply_draft',
  'T018_ticket_triage',
  'T011zh_expense_report',
  'T019zh_inventory_check',
  'T021zh_newsletter_curation',
];

async function grading() {
  console.log(
    `\n1. Grading a stored trajectory against its derived checks (${N.toLocaleString('en-US')} gradings each)`,
  );
  const rows: string[][] = [];
  for (const id of TASKS) {
    const { spec } = deriveTaskSpec(readClawTask(locateTasks(path.join(CLAW_ROOT, 'tasks', id))[0]!).spec);
    // As stored: a trajectory read back from its trace (PyFloat values and all).
    const t = readTrace(writeTrace(synthTrajectory(id))).trajectory;
    const judged = spec.checks.some((c) => c.kind === 'llm_judge');
    const kinds =
      `${spec.checks.length} checks${judged ? ' (llm_judge not graded)' : ', all deterministic'}, ` +
      `${spec.prohibited.length} prohibited`;
    let sink = 0;
    const base = await throughput(() => {
      for (const d of t.dispatches) if (d.status >= 400) sink++;
    }, N);
    const run = runRecordOf(t);
    const only = await throughput(() => (sink += grade(spec, run).score), N);
    const full = await throughput(() => (sink += grade(spec, runRecordOf(t)).score), N);
    if (sink === -1) console.log(sink);
    const met = full.callsPerSec >= GOAL;
    rows.push([
      `${id}`,
      `${t.dispatches.length}`,
      kinds,
      rate(base.callsPerSec),
      ms(full.lat.median),
      ms(full.lat.p99),
      rate(only.callsPerSec),
      rate(full.callsPerSec),
      ratio(base.callsPerSec / full.callsPerSec),
      met ? 'met' : 'MISSED',
    ]);
    emit({
      bench: BENCH,
      name: `${id} · grade stored trajectory (${judged ? 'with llm_judge' : 'deterministic'})`,
      median_ms: full.lat.median,
      p99_ms: full.lat.p99,
      calls_per_s: full.callsPerSec,
      ratio: base.callsPerSec / full.callsPerSec,
      baseline: 'one pass over the dispatches',
      goal: `≥ ${GOAL.toLocaleString('en-US')}/s`,
      met,
    });
  }
  console.log(
    table(
      [
        'task',
        'dispatches',
        'checks',
        'baseline/s',
        'median',
        'p99',
        'grade() only/s',
        'runRecord + grade/s',
        'cost vs baseline',
        `≥ ${GOAL}/s`,
      ],
      rows,
    ),
  );
}

async function traces() {
  console.log(`\n2. Claw-Eval trace JSONL: read (parse + zod per event + trajectory) and write (${PARSES} times each)`);
  const rows: string[][] = [];
  for (const id of TASKS) {
    const text = writeTrace(synthTrajectory(id));
    const lines = text.split('\n').filter(Boolean);
    const mb = Buffer.byteLength(text) / 1e6;
    let sink = 0;
    const base = await throughput(() => {
      for (const l of lines) sink += (JSON.parse(l) as object) ? 1 : 0;
    }, PARSES);
    const events = await throughput(() => (sink += readTraceEvents(text).events.length), PARSES);
    const read = await throughput(() => (sink += readTrace(text).trajectory.messages.length), PARSES);
    const t = readTrace(text).trajectory;
    const write = await throughput(() => (sink += writeTrace(t).length), PARSES);
    if (sink === -1) console.log(sink);
    const per = (r: { callsPerSec: number }) =>
      `${rate(r.callsPerSec * lines.length)} · ${(r.callsPerSec * mb).toFixed(1)} MB/s`;
    rows.push([
      id,
      `${lines.length}`,
      `${(mb * 1000).toFixed(1)} kB`,
      per(base),
      per(events),
      per(read),
      ms(read.lat.median),
      ratio(base.callsPerSec / read.callsPerSec),
      per(write),
    ]);
    emit({
      bench: BENCH,
      name: `${id} · readTrace (${lines.length} lines, ${(mb * 1000).toFixed(0)} kB)`,
      median_ms: read.lat.median,
      p99_ms: read.lat.p99,
      calls_per_s: read.callsPerSec * lines.length,
      ratio: base.callsPerSec / read.callsPerSec,
      baseline: 'JSON.parse of every line',
    });
    emit({
      bench: BENCH,
      name: `${id} · writeTrace`,
      median_ms: write.lat.median,
      p99_ms: write.lat.p99,
      calls_per_s: write.callsPerSec * lines.length,
      ratio: base.callsPerSec / write.callsPerSec,
      baseline: 'JSON.parse of every line',
    });
  }
  console.log(
    table(
      [
        'task',
        'lines',
        'size',
        'JSON.parse (baseline) lines/s',
        'events (parse + zod)',
        'readTrace → trajectory',
        'read median',
        'read vs baseline',
        'writeTrace',
      ],
      rows,
    ),
  );
  console.log('"calls/s" of the trace figures in the summary are lines/s.');
}

async function main() {
  header(`${BENCH}: shared grader on stored runs, Claw-Eval trace read/write`);
  if (!hasGoldens() || !fs.existsSync(path.join(CLAW_ROOT, 'tasks'))) {
    const why = '../shared (conformance goldens and the Claw-Eval corpus) is absent';
    console.log(`skipped: ${why}`);
    emit({
      bench: BENCH,
      name: 'grading',
      median_ms: NaN,
      ratio: null,
      baseline: 'one pass over the dispatches',
      skipped: why,
    });
    return;
  }
  await grading();
  await traces();
}

void main();
