import { bool, defineCommand, intFlag, str } from '../cli/command';
import { startHttpServer, type HttpServer } from '../http';
import { openInBrowser } from '../open-browser';

/** `coworkenv serve` without --port (falls back to a free port when taken). */
export const DEFAULT_PORT = 7357;

export const serveCommand = defineCommand({
  words: ['serve'],
  summary: 'the app in a browser, on 127.0.0.1 (port 7357, else a free one)',
  options: {
    port: { type: 'string', value: 'N', description: 'port to listen on (0 = any free port)' },
    open: {
      type: 'boolean',
      description: 'open the app in the default browser ($COWORKENV_BROWSER if set) through a one-time link',
    },
  },
  async run({ flags }, ctx) {
    const port = intFlag(flags, 'port', { min: 0, max: 65535, fallback: DEFAULT_PORT });
    if (!port.ok) return ctx.usage(port.message);
    const core = ctx.core();
    const rendererDir = ctx.io.rendererDir ? { rendererDir: ctx.io.rendererDir } : {};
    // Without --port: the usual port, so a bookmark keeps working; another free one when it is taken.
    let server: HttpServer;
    try {
      server = await startHttpServer({ core, port: port.value, ...rendererDir }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EADDRINUSE' || str(flags, 'port') !== undefined) throw err;
        return startHttpServer({ core, port: 0, ...rendererDir });
      });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const message =
        e.code === 'EADDRINUSE'
          ? `port ${port.value} is in use; pick another with --port (0 = any free port)`
          : `cannot listen on 127.0.0.1:${port.value}: ${e.message}`;
      return ctx.print({ ok: false, error: { code: 'BAD_REQUEST', message } });
    }
    const link = `${server.url}/#token=${server.token}`;
    const data = { url: server.url, token: server.token, workspace: ctx.workspacePath };
    ctx.out(
      ctx.json
        ? `${JSON.stringify({ ok: true, data })}\n`
        : `CoworkEnv Studio (browser mode) on ${link}\nworkspace: ${ctx.workspacePath}\nAPI: POST ` +
            `${server.url}/rpc/<procedure> with "Authorization: Bearer ${server.token}". Ctrl+C stops.\n`,
    );
    ctx.io.onServing?.({ url: server.url, token: server.token });
    // The printed link (this user's terminal) holds the token; the browser's command line must not.
    if (bool(flags, 'open')) openInBrowser(server.openUrl(), ctx.err, ctx.io.env);
    await (ctx.io.untilStopped ?? (() => new Promise<void>(() => {})))();
    await server.close();
    return 0;
  },
});
