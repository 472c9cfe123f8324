/**
 * Load generator for the env-server benchmark, run as a forked child (its own event loop, as a
 * trainer's rollout workers would be): `concurrency` loops, each running whole episodes — create,
 * every call of the mix as a step, grade, close — over keep-alive connections, until `episodes`
 * episodes are done (bounded). Answers steps/s, requests/s and the step latency.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { stats, type Stats } from './harness';

export type EnvLoadOptions = {
  /** One server, or several: each episode goes to the next one in turn and stays there (sticky). */
  url: string | string[];
  taskId: string;
  calls: { tool: string; arguments: unknown }[];
  episodes: number;
  warmupEpisodes: number;
  concurrency: number;
};
export type EnvLoadResult = {
  stepsPerSec: number;
  requestsPerSec: number;
  episodesPerSec: number;
  lat: Stats;
  errors: number;
  /** The client's own CPU time (user + system) per request over the measured run, µs. */
  clientCpuPerRequest: number;
};

export async function runEnvLoad(o: EnvLoadOptions): Promise<EnvLoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.concurrency });
  const servers = (Array.isArray(o.url) ? o.url : [o.url]).map((u) => new URL(u));
  let errors = 0;
  const send = (server: URL, method: string, path: string, body?: string) =>
    new Promise<string>((resolve, reject) => {
      const data = body === undefined ? undefined : Buffer.from(body);
      const req = http.request(
        {
          agent,
          hostname: server.hostname,
          port: server.port,
          method,
          path,
          headers: data ? { 'content-type': 'application/json', 'content-length': data.length } : {},
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            if ((res.statusCode ?? 0) >= 300) errors++;
            resolve(Buffer.concat(chunks).toString('utf8'));
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  const steps = o.calls.map((c) => JSON.stringify({ tool: c.tool, arguments: c.arguments }));
  const create = JSON.stringify({ task_id: o.taskId });

  const drive = async (episodes: number, lat: number[] | null) => {
    let next = 0;
    const loop = async () => {
      while (next < episodes) {
        const server = servers[next++ % servers.length]!;
        const id = (JSON.parse(await send(server, 'POST', '/episodes', create)) as { episode_id: string }).episode_id;
        for (const body of steps) {
          const t0 = performance.now();
          await send(server, 'POST', `/episodes/${id}/step`, body);
          lat?.push(performance.now() - t0);
        }
        await send(server, 'POST', `/episodes/${id}/grade`, '{"final_text":"done"}');
        await send(server, 'DELETE', `/episodes/${id}`);
      }
    };
    await Promise.all(Array.from({ length: o.concurrency }, loop));
  };

  await drive(o.warmupEpisodes, null);
  errors = 0;
  const lat: number[] = [];
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  await drive(o.episodes, lat);
  const cpu = process.cpuUsage(cpu0);
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  return {
    stepsPerSec: (o.episodes * steps.length) / seconds,
    requestsPerSec: (o.episodes * (steps.length + 3)) / seconds,
    episodesPerSec: o.episodes / seconds,
    lat: stats(lat),
    errors,
    clientCpuPerRequest: (cpu.user + cpu.system) / (o.episodes * (steps.length + 3)),
  };
}

if (require.main === module && process.send) {
  process.once('message', (o: EnvLoadOptions) => {
    runEnvLoad(o).then(
      (r) => process.send!(r, () => process.exit(0)),
      (err: Error) => process.send!({ error: err.stack ?? String(err) }, () => process.exit(1)),
    );
  });
}
