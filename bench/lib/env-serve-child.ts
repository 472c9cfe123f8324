/**
 * One env server process for the env-server benchmark's scale-out row, run as a forked child (as
 * `coworkenv env serve` would run, one per core): serves the package it is sent, answers its URL, and
 * on request its CPU time since it started listening (user + system, µs), then closes and exits.
 */
import { serveRlPackage } from '../../src/main/headless/rl-env-server';

if (require.main === module && process.send) {
  process.once('message', async (o: { packageDir: string }) => {
    const server = await serveRlPackage({ packageDir: o.packageDir, port: 0 });
    const c0 = process.cpuUsage();
    process.send!({ url: server.url });
    process.once('message', async () => {
      const c = process.cpuUsage(c0);
      await server.close();
      process.send!({ cpuMicros: c.user + c.system }, () => process.exit(0));
    });
  });
}
