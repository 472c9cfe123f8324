/**
 * Mock services over HTTP: `serveEnvironment` (what `coworkenv services serve` runs) on loopback,
 * requests/s and latency of a list route and a get route of real Claw-Eval tasks, with the client
 * in a forked second process (keep-alive agent, 16 requests in flight), POSTing the recorded args
 * as Claw-Eval's dispatcher does.
 *
 * Baseline (same run, same process): the same tool called in-process through Environment.call;
 * "cost vs in-process" = in-process calls/s ÷ HTTP requests/s. For reference, the same client
 * against a bare node:http server answering the same bytes (the HTTP stack's ceiling at the time).
 *
 * Goal (issue "Mock services"): ≥ 5,000 requests/s over HTTP. No assertions: figures only.
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { dumpsCompact, type PyValue } from '../src/main/core/py/pyjson';
import { responseBodyText } from '../src/main/core/services/service-instance';
import { serveEnvironment, type ServicesServer } from '../src/main/headless/services-http';
import { emit, header, ms, rate, ratio, table, type Stats } from './lib/harness';
import {
  buildEnv,
  hasGoldens,
  kindOf,
  oneCallPerTool,
  readTask,
  timeCalls,
  unusable,
  type Call,
  type ClawTask,
} from './lib/claw-tasks';
import type { LoadOptions as ServiceLoadOptions, LoadResult as ServiceLoadResult } from './lib/http-load';

const BENCH = 'services-http';
const CALLS = Number(process.env.BENCH_CALLS ?? 20_000);
const CONCURRENCY = 16;
const HTTP_GOAL = 5_000;
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 29_100);

/** Per task: the first valid recorded call of its list tool and of its get tool. */
const TASKS = ['T019zh_inventory_check', 'T011zh_expense_report', 'T017zh_ticket_triage'];

/** The HTTP client in a second process: its own event loop, as Claw-Eval's Python client would be. */
function loadInChild(o: ServiceLoadOptions): Promise<ServiceLoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'lib/http-load.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (m: ServiceLoadResult | { error: string }) =>
      'error' in m ? reject(new Error(m.error)) : resolve(m),
    );
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`http client exited with ${code}`)));
    child.send(o);
  });
}

/** serveEnvironment on PORT_BASE, or the next free base 100 further on (up to 10 tries). */
async function serve(env: ReturnType<typeof buildEnv>): Promise<{ server: ServicesServer; base: number }> {
  for (let k = 0; ; k++) {
    const base = PORT_BASE + 100 * k;
    try {
      return { server: await serveEnvironment(env, base), base };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || k >= 9) throw err;
    }
  }
}

/** A bare node:http server answering `answer` to every request: no parsing, no service. */
async function bare(answer: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(answer);
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

type Row = {
  name: string;
  bytes: number;
  inProc: { callsPerSec: number; lat: Stats };
  http: ServiceLoadResult;
  floor: ServiceLoadResult;
};

async function measureTask(t: ClawTask, rows: Row[]): Promise<void> {
  const picked = ['list', 'get']
    .map((k) => oneCallPerTool(t).find((c) => kindOf(c.tool) === k))
    .filter((c): c is Call => !!c);
  const why = picked.length < 2 ? 'no valid list and get call recorded' : unusable(t, picked);
  if (why) {
    console.log(`${t.id}: skipped: ${why}`);
    emit({
      bench: BENCH,
      name: `${t.id} · HTTP`,
      median_ms: NaN,
      ratio: null,
      baseline: 'in-process Environment.call',
      goal: `≥ ${HTTP_GOAL.toLocaleString('en-US')}/s`,
      skipped: why,
    });
    return;
  }
  const served = buildEnv(t);
  const local = buildEnv(t);
  const { server, base } = await serve(served);
  try {
    for (const c of picked) {
      const u = new URL(t.meta.tools[c.tool]!.url);
      const url = `http://127.0.0.1:${Number(u.port) - 9100 + base}${u.pathname}`;
      const inProc = timeCalls(
        () => local.call(c.tool, c.args),
        CALLS,
        () => local.reset(),
      );
      served.reset(); // no audit left over from an earlier route
      const load = {
        url,
        body: dumpsCompact(c.args as PyValue),
        calls: CALLS,
        warmup: Math.ceil(CALLS / 10),
        concurrency: CONCURRENCY,
      };
      const viaHttp = await loadInChild(load);
      if (viaHttp.errors) throw new Error(`${t.id} ${c.tool}: ${viaHttp.errors} non-200 answers`);
      const answer = responseBodyText(local.request(Number(u.port), 'POST', u.pathname, c.args)!);
      const floorServer = await bare(answer);
      const floor = await loadInChild({ ...load, url: floorServer.url }).finally(() => floorServer.close());
      rows.push({
        name: `${t.id.split('_')[0]} ${c.tool} (${kindOf(c.tool)}) ${u.pathname}`,
        bytes: Buffer.byteLength(answer),
        inProc,
        http: viaHttp,
        floor,
      });
    }
  } finally {
    await server.close();
  }
}

async function main() {
  header(
    `${BENCH}: mock services over HTTP (serveEnvironment), ${CALLS.toLocaleString('en-US')} requests per route, ` +
      `${CONCURRENCY} in flight`,
  );
  if (!hasGoldens()) {
    const why = '../shared/conformance/claw-eval-goldens or ../shared/corpora/claw-eval is absent';
    console.log(`skipped: ${why}`);
    emit({
      bench: BENCH,
      name: 'mock services over HTTP',
      median_ms: NaN,
      ratio: null,
      baseline: 'in-process Environment.call',
      skipped: why,
    });
    return;
  }
  const rows: Row[] = [];
  for (const id of TASKS) await measureTask(readTask(id), rows);

  console.log(
    table(
      [
        'task · tool (kind) route',
        'bytes',
        'in-process calls/s',
        'in-proc median',
        'HTTP req/s',
        'HTTP median',
        'HTTP p99',
        'cost vs in-process',
        'bare node:http req/s',
        'goal',
      ],
      rows.map((r) => {
        const met = r.http.callsPerSec >= HTTP_GOAL;
        return [
          r.name,
          String(r.bytes),
          rate(r.inProc.callsPerSec),
          ms(r.inProc.lat.median),
          rate(r.http.callsPerSec),
          ms(r.http.lat.median),
          ms(r.http.lat.p99),
          ratio(r.inProc.callsPerSec / r.http.callsPerSec),
          rate(r.floor.callsPerSec),
          `≥ ${HTTP_GOAL.toLocaleString('en-US')}/s ${met ? 'met' : 'MISSED'}`,
        ];
      }),
    ),
  );
  for (const r of rows) {
    emit({
      bench: BENCH,
      name: `${r.name} · in-process Environment.call (baseline)`,
      median_ms: r.inProc.lat.median,
      p99_ms: r.inProc.lat.p99,
      calls_per_s: r.inProc.callsPerSec,
      ratio: 1,
      baseline: 'in-process calls/s ÷ calls/s',
    });
    emit({
      bench: BENCH,
      name: `${r.name} · HTTP keep-alive ×${CONCURRENCY}, client in 2nd process`,
      median_ms: r.http.lat.median,
      p99_ms: r.http.lat.p99,
      calls_per_s: r.http.callsPerSec,
      ratio: r.inProc.callsPerSec / r.http.callsPerSec,
      baseline: 'in-process calls/s ÷ calls/s',
      goal: `≥ ${HTTP_GOAL.toLocaleString('en-US')}/s`,
      met: r.http.callsPerSec >= HTTP_GOAL,
    });
    emit({
      bench: BENCH,
      name: `${r.name} · bare node:http, same answer (reference)`,
      median_ms: r.floor.lat.median,
      p99_ms: r.floor.lat.p99,
      calls_per_s: r.floor.callsPerSec,
      ratio: r.inProc.callsPerSec / r.floor.callsPerSec,
      baseline: 'in-process calls/s ÷ calls/s',
    });
  }
  console.log(
    `\nHTTP latency is per request with ${CONCURRENCY} in flight, so it includes queueing (≈ ${CONCURRENCY} ÷ ` +
      `req/s). Server and client share the machine's 2 cores.`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
