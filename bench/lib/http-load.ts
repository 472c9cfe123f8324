/**
 * HTTP load generator for the transport and services-http benchmarks: `concurrency` POSTs of one
 * JSON body to one URL in flight over keep-alive connections. Runs in-process (runLoad) or as a
 * forked child (this file as the fork's entry), so client and server need not share one event loop.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { stats, type Stats } from './harness';

/** `url` is the full target (e.g. http://127.0.0.1:7357/rpc/plan.get); `body` the JSON text sent. */
export type LoadOptions = {
  url: string;
  headers?: Record<string, string>;
  body: string;
  calls: number;
  warmup: number;
  concurrency: number;
};
export type LoadResult = { callsPerSec: number; lat: Stats; errors: number };

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.concurrency });
  const { hostname, port, pathname } = new URL(o.url);
  const body = Buffer.from(o.body);
  let errors = 0;

  const call = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(
        {
          agent,
          hostname,
          port,
          method: 'POST',
          path: pathname,
          headers: { ...o.headers, 'content-type': 'application/json', 'content-length': body.length },
        },
        (res) => {
          if (res.statusCode !== 200) errors++;
          res.resume(); // drain: the envelope is not inspected here, only its status
          res.on('end', resolve);
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  /** `concurrency` loops share one counter, so exactly `total` calls are made. */
  const drive = async (total: number, lat: number[] | null) => {
    let next = 0;
    const loop = async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        await call();
        if (lat) lat[i] = performance.now() - t0;
      }
    };
    await Promise.all(Array.from({ length: o.concurrency }, loop));
  };

  await drive(o.warmup, null); // opens the keep-alive sockets and warms both JITs
  errors = 0;
  const lat: number[] = new Array(o.calls);
  const start = performance.now();
  await drive(o.calls, lat);
  const elapsed = performance.now() - start;
  agent.destroy();
  return { callsPerSec: (o.calls / elapsed) * 1000, lat: stats(lat), errors };
}

// As a forked child: one LoadOptions message in, one LoadResult message out, then exit.
if (require.main === module && process.send) {
  process.once('message', (o: LoadOptions) => {
    runLoad(o).then(
      (r) => process.send!(r, () => process.exit(0)),
      (err: Error) => process.send!({ error: err.stack ?? String(err) }, () => process.exit(1)),
    );
  });
}
