/**
 * Transport overhead: calls/s and latency of trivial queries through each way into the core.
 *
 *   (a) direct   — the procedure's handler called as a function on its own connection (baseline)
 *   (b) dispatch — core.dispatch: input validation, envelope, promise
 *   (c) HTTP     — startHttpServer on loopback, keep-alive, 16 requests in flight; the client runs in a
 *                  forked second process (and, for comparison, in this process, sharing its event loop)
 *   (d) IPC      — registerIpc with a fake ipcMain; name+input and the result go through a V8
 *                  structured-clone round trip, as Electron's IPC serializes them
 *
 * Goal (DESIGN.md §11 / bench brief): HTTP ≥ 5,000 calls/s on loopback. No assertions: figures only.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import v8 from 'node:v8';
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { contract, type ProcedureName } from '../src/shared/contract';
import type { QueryContext } from '../src/main/core/context';
import { openDb, readHandle } from '../src/main/core/db/sqlite';
import { CoreEvents } from '../src/main/core/events/core-events';
import type { JobRunner } from '../src/main/core/jobs/job-runner';
import { silentLogger } from '../src/main/core/logger';
import { handlers } from '../src/main/core/rpc/handlers';
import { registerIpc } from '../src/main/electron/ipc';
import { startHttpServer } from '../src/main/headless/http';
import { emit, header, ms, rate, ratio, table, throughput, type Stats } from './lib/harness';
import { runLoad, type LoadOptions, type LoadResult } from './lib/http-load';
import { benchWorkspace } from './lib/workspace';

const BENCH = 'transport';
const CALLS = Number(process.env.BENCH_CALLS ?? 20_000);
const CONCURRENCY = 16;
const HTTP_GOAL = 5_000;

/** Trivial queries: plan.get is one indexed row; workspace.info adds a stat() and three small queries. */
const PROCEDURES: [ProcedureName, unknown][] = [
  ['plan.get', { id: 1 }],
  ['workspace.info', {}],
];

type Row = { how: string; callsPerSec: number; lat: Stats; goal?: string; met?: boolean };

/** The HTTP client in a second process: its own event loop and core, as a browser would be. */
function loadInChild(o: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'lib/http-load.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (m: LoadResult | { error: string }) =>
      'error' in m ? reject(new Error(m.error)) : resolve(m),
    );
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`http client exited with ${code}`)));
    child.send(o);
  });
}

/** registerIpc against a fake ipcMain; calls cross a V8 serialize/deserialize boundary both ways. */
function fakeIpc(ws: ReturnType<typeof benchWorkspace>) {
  const appOrigin = 'file:///opt/coworkenv/out/renderer/';
  let handler: ((e: IpcMainInvokeEvent, ...args: unknown[]) => unknown) | undefined;
  const ipcMain = {
    handle: (_channel: string, fn: (e: IpcMainInvokeEvent, ...args: unknown[]) => unknown) => void (handler = fn),
    removeHandler: () => void (handler = undefined),
  } as unknown as Pick<IpcMain, 'handle' | 'removeHandler'>;
  const dispose = registerIpc(ipcMain, ws.core, appOrigin, () => []);
  const event = { senderFrame: { parent: null, url: `${appOrigin}index.html` } } as unknown as IpcMainInvokeEvent;
  const clone = <T>(v: T): T => v8.deserialize(v8.serialize(v)) as T;
  return {
    async call(name: string, input: unknown): Promise<unknown> {
      const [n, i] = clone([name, input]); // renderer → main
      const result = await handler!(event, n, i);
      return clone(result); // main → renderer
    },
    dispose,
  };
}

async function main() {
  header(`${BENCH}: trivial queries through each transport (${CALLS.toLocaleString('en-US')} calls each)`);
  const ws = benchWorkspace({ seedDemo: true });
  // The baseline's own connection and context: what a handler gets, minus dispatch.
  const db = openDb(ws.file);
  const ctx: QueryContext = {
    db: readHandle(db),
    now: () => new Date().toISOString(),
    logger: silentLogger,
    workspacePath: ws.file,
    readOnly: false,
    events: new CoreEvents(),
    jobs: undefined as unknown as JobRunner,
    keys: { secrets: null, env: {} },
  };
  const server = await startHttpServer({ core: ws.core });
  const ipc = fakeIpc(ws);

  try {
    for (const [name, input] of PROCEDURES) {
      // Every path must answer ok, or we would be timing error envelopes.
      const probe = await ws.core.dispatch(name, input);
      if (!probe.ok) throw new Error(`${name} failed: ${probe.error.message}`);
      const parsed = contract[name].input.parse(input);
      const handler = handlers[name] as (i: unknown, c: QueryContext) => unknown;
      const load: LoadOptions = {
        url: `${server.url}/rpc/${encodeURIComponent(name)}`,
        headers: { authorization: `Bearer ${server.token}` },
        body: JSON.stringify(input),
        calls: CALLS,
        warmup: Math.ceil(CALLS / 10),
        concurrency: CONCURRENCY,
      };

      const rows: Row[] = [];
      rows.push({ how: 'direct handler call (baseline)', ...(await throughput(() => handler(parsed, ctx), CALLS)) });
      rows.push({ how: 'core.dispatch', ...(await throughput(() => ws.core.dispatch(name, input), CALLS)) });
      rows.push({
        how: 'IPC (fake ipcMain + structured clone)',
        ...(await throughput(() => ipc.call(name, input), CALLS)),
      });
      for (const [how, run] of [
        ['HTTP keep-alive ×16, client in 2nd process', loadInChild],
        ['HTTP keep-alive ×16, client in-process', runLoad],
      ] as const) {
        const r = await run(load);
        if (r.errors) throw new Error(`${how}: ${r.errors} non-200 answers`);
        const primary = how.includes('2nd process');
        rows.push({
          how,
          callsPerSec: r.callsPerSec,
          lat: r.lat,
          ...(primary ? { goal: `≥ ${HTTP_GOAL.toLocaleString('en-US')}/s`, met: r.callsPerSec >= HTTP_GOAL } : {}),
        });
      }

      const base = rows[0]!;
      console.log(`\n${name} ${JSON.stringify(input)}`);
      console.log(
        table(
          ['transport', 'calls/s', 'median', 'p99', 'cost vs direct', 'goal'],
          rows.map((r) => [
            r.how,
            rate(r.callsPerSec),
            ms(r.lat.median),
            ms(r.lat.p99),
            ratio(base.callsPerSec / r.callsPerSec),
            r.goal ? `${r.goal} ${r.met ? 'met' : 'MISSED'}` : '',
          ]),
        ),
      );
      // "cost vs direct" = direct calls/s ÷ this path's calls/s: how many direct calls one call costs.
      for (const r of rows) {
        emit({
          bench: BENCH,
          name: `${name} · ${r.how}`,
          median_ms: r.lat.median,
          p99_ms: r.lat.p99,
          calls_per_s: r.callsPerSec,
          ratio: base.callsPerSec / r.callsPerSec,
          baseline: 'direct handler calls/s ÷ calls/s',
          ...(r.goal ? { goal: r.goal, met: r.met ?? false } : {}),
        });
      }
    }
    console.log('\nHTTP latency is per request with 16 in flight, so it includes queueing (≈ 16 ÷ calls/s).');
  } finally {
    ipc.dispose();
    await server.close();
    db.close();
    await ws.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
