/**
 * Mock services in-process, on real Claw-Eval tasks (recorded goldens + corpus fixtures):
 *
 *   1. tool call latency through Environment.call(tool, args) for each tool's first valid recorded
 *      call (list / get / write), against the route handler called directly on the state with the
 *      body already validated (baseline); plus where one call's time goes, stage by stage
 *   2. a 12-call task replay: new Environment (with parity probe), the task's first 12 recorded
 *      calls that upstream answered 200, audits read and dumped, reset; built from fixture records
 *      parsed once up-front, and again with the fixture JSON parsed in every replay. Baseline: fresh
 *      state from the records plus the 12 route handlers called directly.
 *
 * Goal (issue "Mock services"): a full 12-call replay < 1 ms median. No assertions: figures only.
 * Tasks whose services are missing or still placeholders (or answer another status than upstream)
 * are skipped with a one-line reason.
 */
import { performance } from 'node:perf_hooks';
import { pyIsoTimestamp, type RouteContext } from '../src/main/core/services/define';
import { Environment } from '../src/main/core/services/environment';
import { deepCopy, dumpsCompact, dumpsPy, parsePyJson, type PyValue } from '../src/main/core/py/pyjson';
import { SERVICE_REGISTRY } from '../src/main/core/services/registry';
import { modelDefaults, validateBody } from '../src/main/core/services/request-model';
import { emit, header, ms, rate, ratio, stats, table, type Stats } from './lib/harness';
import {
  BATCH,
  buildEnv,
  directHandlers,
  firstOk,
  hasGoldens,
  kindOf,
  oneCallPerTool,
  readTask,
  specOf,
  timeCalls,
  unusable,
  type Call,
  type ClawTask,
} from './lib/claw-tasks';

const BENCH = 'services';
const CALLS = Number(process.env.BENCH_CALLS ?? 10_000); // per tool
const REPLAYS = Number(process.env.BENCH_REPLAYS ?? 2_000); // per task and variant
const REPLAY_CALLS = 12;
const REPLAY_GOAL_MS = 1;

const TOOL_TASKS = [
  'T019zh_inventory_check',
  'T011zh_expense_report',
  'T013zh_meeting_notes',
  'T017zh_ticket_triage',
  'T015zh_kb_search',
  'T001zh_email_triage',
  'T003zh_calendar_scheduling',
];
const REPLAY_TASKS = [
  ...TOOL_TASKS,
  'T033zh_ops_review_dashboard',
  'T035zh_vendor_procurement',
  'T029zh_cross_service_meeting',
];

/** Median of `fn` over `n` runs (after a short warm-up): one stage of a call on its own. */
function medianOf(fn: () => unknown, n = 2000): number {
  for (let i = 0; i < 200; i++) fn();
  const lat: number[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    lat[i] = performance.now() - t0;
  }
  return stats(lat).median;
}

/** Stage by stage, what Environment.call does for one call (each stage timed alone, same input). */
function stages(t: ClawTask, c: Call) {
  const u = new URL(t.meta.tools[c.tool]!.url);
  const i = t.meta.services.findIndex((s) => s.declared_port === Number(u.port));
  const def = SERVICE_REGISTRY.get(t.meta.services[i]!.name)!;
  const route = def.routes[u.pathname]!;
  const noBody = route.noBody === 'defaults' ? modelDefaults(route.model) : route.noBody;
  const value = (validateBody(route.model, c.args, noBody) as { value: Record<string, PyValue> }).value;
  const ctx: RouteContext<unknown> = {
    state: def.load(t.records[i]!.map(deepCopy), t.now, []),
    now: () => t.now,
    timestamp: () => pyIsoTimestamp(t.now),
    record: () => {},
  };
  const response = route.handle(value, ctx);
  const wire = dumpsCompact(response);
  const body = parsePyJson(wire);
  return {
    bytes: Buffer.byteLength(wire),
    validate: medianOf(() => validateBody(route.model, c.args, noBody)),
    dumpsCompact: medianOf(() => dumpsCompact(response)),
    parsePyJson: medianOf(() => parsePyJson(wire)),
    dumpsPy: medianOf(() => dumpsPy(body)),
  };
}

function toolLatency(tasks: ClawTask[]) {
  console.log(
    `\n1. Tool call latency: Environment.call vs the route handler called directly (${CALLS.toLocaleString('en-US')} ` +
      `calls each, reset every ${BATCH})`,
  );
  const rows: string[][] = [];
  const stageRows: string[][] = [];
  for (const t of tasks) {
    const calls = oneCallPerTool(t);
    const why = unusable(t, calls);
    if (why) {
      console.log(`${t.id}: skipped: ${why}`);
      emit({
        bench: BENCH,
        name: `${t.id} · tool calls`,
        median_ms: NaN,
        ratio: null,
        baseline: 'direct route handler',
        skipped: why,
      });
      continue;
    }
    const env = buildEnv(t);
    const direct = directHandlers(t, calls);
    calls.forEach((c, i) => {
      const base = timeCalls(() => direct.call(i), CALLS, direct.reload);
      const call = timeCalls(
        () => env.call(c.tool, c.args),
        CALLS,
        () => env.reset(),
      );
      const name = `${t.id.split('_')[0]} ${c.tool} (${kindOf(c.tool)})`;
      const r = call.lat.median / base.lat.median;
      rows.push([name, ms(base.lat.median), ms(call.lat.median), ms(call.lat.p99), rate(call.callsPerSec), ratio(r)]);
      emit({
        bench: BENCH,
        name: `${name} · Environment.call`,
        median_ms: call.lat.median,
        p99_ms: call.lat.p99,
        calls_per_s: call.callsPerSec,
        ratio: r,
        baseline: `direct route handler on the state, median ${ms(base.lat.median)}`,
      });
      const s = stages(t, c);
      stageRows.push([
        name,
        String(s.bytes),
        ms(s.validate),
        ms(base.lat.median),
        ms(s.dumpsCompact),
        ms(s.parsePyJson),
        ms(s.dumpsPy),
        ms(call.lat.median),
      ]);
    });
  }
  console.log(
    table(['task · tool (kind)', 'handler (baseline)', 'call median', 'call p99', 'calls/s', 'call ÷ handler'], rows),
  );
  console.log('\nWhere one call goes (medians of each stage timed alone; the call adds dispatch, audit, clock):');
  console.log(
    table(
      [
        'task · tool',
        'resp bytes',
        'validateBody',
        'handler',
        'dumpsCompact (wire)',
        'parsePyJson (snapshot)',
        'dumpsPy (text)',
        'whole call',
      ],
      stageRows,
    ),
  );
}

type Phase = 'build' | 'calls' | 'audits' | 'reset';

/** One replay: [parse fixtures,] construct, 12 calls, audits dumped as env.replay does, reset. */
function replayOnce(
  t: ClawTask,
  calls: Call[],
  parse: boolean,
  ph: Record<Phase | 'parse', number[]>,
  k: number,
): void {
  let a = performance.now();
  const records = parse ? t.texts.map((x) => parsePyJson(x.text) as PyValue[]) : t.records;
  let b = performance.now();
  ph.parse[k] = b - a;
  const env = new Environment(specOf(t, records));
  a = performance.now();
  ph.build[k] = a - b;
  for (const c of calls) env.call(c.tool, c.args);
  b = performance.now();
  ph.calls[k] = b - a;
  for (const v of Object.values(env.audits())) dumpsPy(v);
  a = performance.now();
  ph.audits[k] = a - b;
  env.reset();
  ph.reset[k] = performance.now() - a;
}

type ReplayResult = { lat: Stats; perSec: number; phases: Record<string, number> };

function runReplays(t: ClawTask, calls: Call[], variant: 'direct' | 'parsed' | 'parse'): ReplayResult {
  const ph = {
    parse: [] as number[],
    build: [] as number[],
    calls: [] as number[],
    audits: [] as number[],
    reset: [] as number[],
  };
  const direct = variant === 'direct' ? directHandlers(t, calls) : undefined;
  const once = direct
    ? () => {
        direct.reload();
        for (let i = 0; i < calls.length; i++) direct.call(i);
      }
    : (k: number) => replayOnce(t, calls, variant === 'parse', ph, k);
  for (let i = 0; i < Math.min(200, REPLAYS); i++) once(0);
  const lat: number[] = new Array(REPLAYS);
  const start = performance.now();
  for (let i = 0; i < REPLAYS; i++) {
    const t0 = performance.now();
    once(i);
    lat[i] = performance.now() - t0;
  }
  const perSec = (REPLAYS / (performance.now() - start)) * 1000;
  const phases = direct
    ? {}
    : Object.fromEntries(Object.entries(ph).map(([k, v]) => [k, stats(v.slice(0, REPLAYS)).median]));
  return { lat: stats(lat), perSec, phases };
}

function replays(tasks: ClawTask[]) {
  console.log(
    `\n2. ${REPLAY_CALLS}-call task replay incl. construction, audits and reset (${REPLAYS.toLocaleString('en-US')} ` +
      `replays each)`,
  );
  const rows: string[][] = [];
  const phaseRows: string[][] = [];
  for (const t of tasks) {
    const calls = firstOk(t, REPLAY_CALLS);
    const why = calls.length ? unusable(t, calls) : 'no call answered 200 upstream';
    if (why) {
      console.log(`${t.id}: skipped: ${why}`);
      emit({
        bench: BENCH,
        name: `${t.id} · ${REPLAY_CALLS}-call replay`,
        median_ms: NaN,
        ratio: null,
        baseline: 'direct handlers',
        goal: `median < ${REPLAY_GOAL_MS} ms`,
        skipped: why,
      });
      continue;
    }
    const distinct = new Set(calls.map((c) => c.tool)).size;
    const mix =
      `${calls.filter((c) => kindOf(c.tool) === 'write').length} writes, ${distinct} tools, ` +
      `${t.meta.services.length} svc`;
    const base = runReplays(t, calls, 'direct');
    for (const [variant, label] of [
      ['parsed', 'replay, fixtures parsed once'],
      ['parse', 'replay incl. fixture JSON parsing'],
    ] as const) {
      const r = runReplays(t, calls, variant);
      const primary = variant === 'parsed';
      const met = r.lat.median < REPLAY_GOAL_MS;
      rows.push([
        `${t.id.split('_')[0]} ${label}`,
        mix,
        ms(base.lat.median),
        ms(r.lat.median),
        ms(r.lat.p99),
        rate(r.perSec),
        rate(r.perSec * REPLAY_CALLS),
        ratio(r.lat.median / base.lat.median),
        primary ? (met ? 'met' : 'MISSED') : '',
      ]);
      phaseRows.push([
        `${t.id.split('_')[0]} ${label}`,
        ...['parse', 'build', 'calls', 'audits', 'reset'].map((p) =>
          p === 'parse' && primary ? '—' : ms(r.phases[p]),
        ),
      ]);
      emit({
        bench: BENCH,
        name: `${t.id} · ${label}`,
        median_ms: r.lat.median,
        p99_ms: r.lat.p99,
        calls_per_s: r.perSec,
        ratio: r.lat.median / base.lat.median,
        baseline: `fresh state + 12 direct handler calls, median ${ms(base.lat.median)}`,
        ...(primary ? { goal: `median < ${REPLAY_GOAL_MS} ms`, met } : {}),
      });
    }
  }
  console.log(
    table(
      [
        'task · variant',
        'mix',
        'baseline',
        'median',
        'p99',
        'replays/s',
        'calls/s',
        'vs baseline',
        `< ${REPLAY_GOAL_MS} ms`,
      ],
      rows,
    ),
  );
  console.log('\nPhase medians per replay (each phase timed inside the replay loop):');
  console.log(
    table(
      [
        'task · variant',
        'parse fixtures',
        'new Environment (+probe)',
        `${REPLAY_CALLS} calls`,
        'audits + dumpsPy',
        'reset',
      ],
      phaseRows,
    ),
  );
  console.log('\n"calls/s" in the replay table is replays/s × 12; "replays/s" counts the whole measured loop.');
}

function main() {
  header(`${BENCH}: mock services in-process on Claw-Eval tasks`);
  if (!hasGoldens()) {
    const why = '../shared/conformance/claw-eval-goldens or ../shared/corpora/claw-eval is absent';
    console.log(`skipped: ${why}`);
    emit({
      bench: BENCH,
      name: 'mock services',
      median_ms: NaN,
      ratio: null,
      baseline: 'direct route handler',
      skipped: why,
    });
    return;
  }
  const tasks = new Map(REPLAY_TASKS.map((id) => [id, readTask(id)]));
  toolLatency(TOOL_TASKS.map((id) => tasks.get(id)!));
  replays(REPLAY_TASKS.map((id) => tasks.get(id)!));
}

main();
