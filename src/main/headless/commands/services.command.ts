import { seededRandom } from '../../core/services/lib';
import { defineCommand, intFlag, str } from '../cli/command';
import { serveEnvironment } from '../services-http';
import { ENV_OPTIONS, envFlags } from './env.command';

export const servicesServeCommand = defineCommand({
  words: ['services', 'serve'],
  summary: "a task's mock services over HTTP at Claw-Eval's routes and ports",
  options: { ...ENV_OPTIONS, 'port-base': { type: 'string', value: 'N', description: 'first port (default 9100)' } },
  details: ['GET /<service>/audit and POST /<service>/reset work as upstream’s. Ctrl+C stops.'],
  async run({ flags }, ctx) {
    const taskId = str(flags, 'task');
    if (!taskId) return ctx.usage('services serve --task <id> [--port-base 9100] [--clock <ISO instant>]');
    const env = envFlags(flags);
    if (!env.ok) return ctx.usage(env.message);
    const portBase = intFlag(flags, 'port-base', { min: 1024, max: 65000, fallback: 9100 });
    if (!portBase.ok) return ctx.usage(portBase.message);
    const pinned = env.clock ? new Date(env.clock) : undefined;
    const environment = ctx.core().taskEnvironment(taskId, pinned, env.mode);
    if (!environment)
      return ctx.print({
        ok: false,
        error: { code: 'NOT_FOUND', message: `task ${taskId} not found; import it first (coworkenv tasks import)` },
      });
    const errors = env.errorRate > 0 ? { rate: env.errorRate, random: seededRandom(env.seed) } : undefined;
    let server: Awaited<ReturnType<typeof serveEnvironment>>;
    try {
      server = await serveEnvironment(environment, portBase.value, errors);
    } catch (err) {
      const message = `cannot listen: ${(err as Error).message}; choose another --port-base`;
      return ctx.print({ ok: false, error: { code: 'BAD_REQUEST', message } });
    }
    if (ctx.json) ctx.out(`${JSON.stringify({ ok: true, data: { task: taskId, ports: server.ports } })}\n`);
    else
      for (const [id, port] of Object.entries(server.ports))
        ctx.out(
          `${id.padEnd(10)} http://127.0.0.1:${port}/${id}/…  (audit: GET /${id}/audit, reset: POST /${id}/reset)\n`,
        );
    await (ctx.io.untilStopped ?? (() => new Promise<void>(() => {})))();
    await server.close();
    return 0;
  },
});
