/**
 * The RL environment server (`serveRlPackage`, what `coworkenv env serve` runs) on loopback: steps/s
 * with concurrent episodes, the client in a forked second process running whole episodes (create,
 * 10 tool calls, grade, close) in 64 concurrent loops (BENCH_ENV_CONCURRENCY) until a fixed number of
 * episodes is done: 64 episodes in flight, as many rollout workers sharing one server process.
 *
 * The package: the hand-written validation task (gmail + helpdesk with inline records), exported
 * with exportRlPackage; the step mix is its 5-call reference plan (reads and writes) plus 5 reads.
 *
 * Baselines (same run, same process): (a) the same episodes in-process on Environment (new
 * environment, 10 calls; what one step costs without any server), (b) the same episodes through the
 * server's EpisodeStore without HTTP (create, steps, grade, close), (c) a bare node:http echo server
 * (answers every request with its body, plus an episode id) driven by the same client: what HTTP alone
 * costs on this machine. "cost vs in-process" = (a) ÷ HTTP; "of echo" = env-server steps/s ÷ echo's.
 *
 * Server CPU per request (user + system time of the server's process over the whole client run, warm-up
 * included, ÷ requests): what one request costs the server, a figure far less bent by other load on the
 * machine than steps/s; the echo server's is the floor node:http itself sets.
 *
 * Scale-out (issue 20): BENCH_ENV_SERVERS (default 2; 0 leaves it out) `env serve`-like processes, each
 * serving the package on its own port, behind the same client: each episode goes to the next server in
 * turn and all its requests stay there (as the verl package's rollouts keep their server). Aggregate steps/s.
 *
 * Goal (issues 12, 20): ≥ 5,000 steps/s per process over HTTP, 64 episodes in flight. No assertions.
 */
import { fork } from 'node:child_process';
import nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TaskSpec } from '../src/shared/contract/entities/task-spec';
import { freshEnvironment, taskClock } from '../src/main/core/export/export-task';
import { exportRlPackage } from '../src/main/core/export/rl/export-rl';
import { EpisodeStore } from '../src/main/core/rl-env/episodes';
import { loadRlPackage } from '../src/main/core/rl-env/package-load';
import type { PyValue } from '../src/main/core/py/pyjson';
import { serveRlPackage } from '../src/main/headless/rl-env-server';
import { validTask } from '../test/validation/valid-task';
import type { EnvLoadOptions, EnvLoadResult } from './lib/env-load';
import { emit, header, ms, rate, ratio, table, tempDir } from './lib/harness';

const BENCH = 'env-server';
const EPISODES = Number(process.env.BENCH_ENV_EPISODES ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_ENV_CONCURRENCY ?? 64);
const SERVERS = Number(process.env.BENCH_ENV_SERVERS ?? 2);
const GOAL = 5_000;

type Served = { url: string; cpuMicros(): Promise<number>; close(): Promise<void> };

/** One env server in a forked process of its own (as `coworkenv env serve`, one per core). */
function serverInChild(packageDir: string): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'lib/env-serve-child.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('error', reject);
    child.once('message', (m: { url: string }) => {
      let cpu: Promise<number> | undefined;
      const stop = () =>
        (cpu ??= new Promise<number>((done) => {
          child.once('message', (r: { cpuMicros: number }) => done(r.cpuMicros));
          child.send('stop');
        }));
      resolve({ url: m.url, cpuMicros: stop, close: () => stop().then(() => undefined) });
    });
    child.send({ packageDir });
  });
}

/** The load run against `url` (one or several servers), with this process's CPU time over it. */
async function measured(o: EnvLoadOptions): Promise<EnvLoadResult & { cpuMicros: number; requests: number }> {
  const c0 = process.cpuUsage();
  const r = await loadInChild(o);
  const c = process.cpuUsage(c0);
  return { ...r, cpuMicros: c.user + c.system, requests: (o.episodes + o.warmupEpisodes) * (o.calls.length + 3) };
}

function loadInChild(o: EnvLoadOptions): Promise<EnvLoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'lib/env-load.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (m: EnvLoadResult | { error: string }) =>
      'error' in m ? reject(new Error(m.error)) : resolve(m),
    );
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`load client exited with ${code}`)));
    child.send(o);
  });
}

/** The bare baseline: every request answered with its own body (an episode id added), nothing else. */
async function echoServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = nodeHttp.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length ? Buffer.concat(chunks).toString('utf8') : '{}';
      const out = `{"episode_id":"ep_echo","echo":${body}}`;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Episodes per second of `run` (one whole episode per call), after a warm-up. */
function perSecond(run: () => void, episodes: number): number {
  for (let i = 0; i < Math.ceil(episodes / 10); i++) run();
  const t0 = performance.now();
  for (let i = 0; i < episodes; i++) run();
  return (episodes / (performance.now() - t0)) * 1000;
}

async function main() {
  header(
    `${BENCH}: RL env server on loopback, ${EPISODES.toLocaleString('en-US')} episodes, ${CONCURRENCY} concurrent`,
  );
  const spec = TaskSpec.parse(validTask());
  const task = { spec, fixtures: [], origin: 'manual' as const };
  const calls = [
    ...spec.reference_plan!.map((s) => ({ tool: s.tool, arguments: s.args })),
    { tool: 'gmail_list_messages', arguments: { days_back: 7 } },
    { tool: 'gmail_get_message', arguments: { message_id: 'msg_102' } },
    { tool: 'helpdesk_list_tickets', arguments: {} },
    { tool: 'gmail_get_message', arguments: { message_id: 'msg_101' } },
    { tool: 'gmail_list_messages', arguments: { days_back: 1 } },
  ];
  const tmp = tempDir('coworkenv-bench-env-');
  try {
    const dir = path.join(tmp.dir, 'pkg');
    await exportRlPackage({ tasks: [task], outDir: dir });
    const clock = taskClock(spec, new Date());
    const inProc = perSecond(() => {
      const env = freshEnvironment(task, clock);
      for (const c of calls) env.call(c.tool, c.arguments as PyValue);
    }, EPISODES);
    const store = new EpisodeStore(loadRlPackage(dir));
    const viaStore = perSecond(() => {
      const id = store.create({ task_id: spec.task_id }).episode_id;
      for (const c of calls) store.step(id, { tool: c.tool, arguments: c.arguments as PyValue });
      store.grade(id, { final_text: 'done' });
      store.close(id);
    }, EPISODES);
    const load = (url: string | string[]): EnvLoadOptions => ({
      url,
      taskId: spec.task_id,
      calls,
      episodes: EPISODES,
      warmupEpisodes: Math.ceil(EPISODES / 10),
      concurrency: CONCURRENCY,
    });
    const server = await serveRlPackage({ packageDir: dir, port: 0 });
    let http: Awaited<ReturnType<typeof measured>>;
    try {
      http = await measured(load(server.url));
    } finally {
      await server.close();
    }
    if (http.errors) throw new Error(`${http.errors} error answers during the HTTP run`);
    const echo = await echoServer();
    let bare: Awaited<ReturnType<typeof measured>>;
    try {
      bare = await measured(load(echo.url));
    } finally {
      await echo.close();
    }
    let many: { run: EnvLoadResult; cpuPerRequest: number } | undefined;
    if (SERVERS > 0) {
      const servers = await Promise.all(Array.from({ length: SERVERS }, () => serverInChild(dir)));
      try {
        const run = await loadInChild(load(servers.map((x) => x.url)));
        if (run.errors) throw new Error(`${run.errors} error answers during the ${SERVERS}-server run`);
        const cpu = (await Promise.all(servers.map((x) => x.cpuMicros()))).reduce((a, b) => a + b, 0);
        many = { run, cpuPerRequest: cpu / ((EPISODES + Math.ceil(EPISODES / 10)) * (calls.length + 3)) };
      } finally {
        await Promise.all(servers.map((x) => x.close()));
      }
    }
    const cpuPerRequest = (r: { cpuMicros: number; requests: number }) => r.cpuMicros / r.requests;
    const steps = calls.length;
    const met = http.stepsPerSec >= GOAL;
    console.log(
      table(
        [
          'path',
          'episodes/s',
          'steps/s',
          'requests/s',
          'step median',
          'step p99',
          'server CPU/request',
          'client CPU/request',
          'cost vs in-process',
          'goal / of echo',
        ],
        [
          [
            '(a) in-process Environment (baseline)',
            rate(inProc),
            rate(inProc * steps),
            '—',
            ms(1000 / (inProc * steps)),
            '—',
            '—',
            '—',
            ratio(1),
            '',
          ],
          [
            '(b) EpisodeStore, no HTTP',
            rate(viaStore),
            rate(viaStore * steps),
            '—',
            '—',
            '—',
            '—',
            '—',
            ratio(inProc / viaStore),
            '',
          ],
          [
            `HTTP, client in 2nd process, ${CONCURRENCY} episodes in flight`,
            rate(http.episodesPerSec),
            rate(http.stepsPerSec),
            rate(http.requestsPerSec),
            ms(http.lat.median),
            ms(http.lat.p99),
            `${cpuPerRequest(http).toFixed(1)} µs`,
            `${http.clientCpuPerRequest.toFixed(1)} µs`,
            ratio((inProc * steps) / http.stepsPerSec),
            `≥ ${GOAL.toLocaleString('en-US')} steps/s ${met ? 'met' : 'MISSED'}; ` +
              `${ratio(http.stepsPerSec / bare.stepsPerSec)} of echo`,
          ],
          [
            `(c) bare node:http echo server, same client, ${CONCURRENCY} in flight`,
            rate(bare.episodesPerSec),
            rate(bare.stepsPerSec),
            rate(bare.requestsPerSec),
            ms(bare.lat.median),
            ms(bare.lat.p99),
            `${cpuPerRequest(bare).toFixed(1)} µs`,
            `${bare.clientCpuPerRequest.toFixed(1)} µs`,
            '—',
            ratio(1),
          ],
          ...(many
            ? [
                [
                  `${SERVERS} server processes, one client, ${CONCURRENCY} in flight (aggregate)`,
                  rate(many.run.episodesPerSec),
                  rate(many.run.stepsPerSec),
                  rate(many.run.requestsPerSec),
                  ms(many.run.lat.median),
                  ms(many.run.lat.p99),
                  `${many.cpuPerRequest.toFixed(1)} µs`,
                  `${many.run.clientCpuPerRequest.toFixed(1)} µs`,
                  ratio((inProc * steps) / many.run.stepsPerSec),
                  `×${(many.run.stepsPerSec / http.stepsPerSec).toFixed(2)} of one process`,
                ],
              ]
            : []),
        ],
      ),
    );
    console.log(`\nAn episode is ${steps} steps plus create, grade and close (${steps + 3} requests over HTTP).`);
    emit({
      bench: BENCH,
      name: 'in-process Environment, 10-call episodes (baseline)',
      median_ms: 1000 / (inProc * steps),
      calls_per_s: inProc * steps,
      ratio: 1,
      baseline: 'itself',
    });
    emit({
      bench: BENCH,
      name: 'EpisodeStore without HTTP (create, 10 steps, grade, close)',
      median_ms: 1000 / (viaStore * steps),
      calls_per_s: viaStore * steps,
      ratio: inProc / viaStore,
      baseline: 'in-process Environment',
    });
    emit({
      bench: BENCH,
      name: `HTTP steps, client in 2nd process, ${CONCURRENCY} concurrent episodes`,
      median_ms: http.lat.median,
      p99_ms: http.lat.p99,
      calls_per_s: http.stepsPerSec,
      ratio: (inProc * steps) / http.stepsPerSec,
      baseline: 'in-process Environment steps/s',
      goal: `≥ ${GOAL.toLocaleString('en-US')} steps/s`,
      met,
    });
    emit({
      bench: BENCH,
      name: 'server CPU per request: env server vs bare echo server',
      median_ms: cpuPerRequest(http) / 1000,
      ratio: cpuPerRequest(http) / cpuPerRequest(bare),
      baseline: `echo server CPU per request (${cpuPerRequest(bare).toFixed(1)} µs)`,
    });
    if (many)
      emit({
        bench: BENCH,
        name: `HTTP steps, ${SERVERS} server processes behind one client, ${CONCURRENCY} concurrent (aggregate)`,
        median_ms: many.run.lat.median,
        p99_ms: many.run.lat.p99,
        calls_per_s: many.run.stepsPerSec,
        ratio: many.run.stepsPerSec / http.stepsPerSec,
        baseline: 'one server process, same run',
      });
    emit({
      bench: BENCH,
      name: `HTTP steps vs a bare node:http echo server, ${CONCURRENCY} concurrent episodes`,
      median_ms: http.lat.median,
      calls_per_s: http.stepsPerSec,
      ratio: http.stepsPerSec / bare.stepsPerSec,
      baseline: `echo server steps/s (${Math.round(bare.stepsPerSec)})`,
    });
  } finally {
    tmp.cleanup();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
