import { defineCommand, intFlag, str } from '../cli/command';
import { serveRlPackage } from '../rl-env-server';

/** `env serve --package DIR`: an RL package's environments over HTTP on 127.0.0.1 (protocol in its README). */
export const envServeCommand = defineCommand({
  words: ['env', 'serve'],
  summary: "serve an RL package's environments over HTTP on 127.0.0.1 (episodes: create, step, grade, close)",
  options: {
    package: { type: 'string', value: 'DIR', description: 'an RL package folder (coworkenv export rl)' },
    port: { type: 'string', value: 'N', description: 'the port (default 8765; 0 picks a free one)' },
    host: {
      type: 'string',
      value: 'ADDR',
      description: 'the address to listen on (default 127.0.0.1; 0.0.0.0 for rollout workers on other machines)',
    },
    'judge-url': {
      type: 'string',
      value: 'URL',
      description: 'an OpenAI-compatible base URL that grades llm_judge checks (key: COWORKENV_JUDGE_API_KEY)',
    },
    'judge-model': { type: 'string', value: 'MODEL', description: 'the judge model (with --judge-url)' },
  },
  details: [
    'The package files are sha256-checked at start; episodes are fresh environments, many at once. The protocol',
    'and a minimal Python client are in the package README. Ctrl+C stops. Exit codes: 0 stopped, 1 the package',
    'cannot be loaded or the port is taken, 2 usage. Scale out: one process per core or machine, each on its own',
    'port; rollout workers spread episodes over them (COWORKENV_ENV_URLS, comma-separated; see the package README).',
    'Without --judge-url, llm_judge checks are pending in every grade (their weight counts 0, incomplete: true).',
    'The judge key is read from the environment only (a flag would show in the process list).',
  ],
  async run({ flags }, ctx) {
    const packageDir = str(flags, 'package');
    if (!packageDir) return ctx.usage('env serve --package <dir> [--port N]');
    const port = intFlag(flags, 'port', { min: 0, max: 65535, fallback: 8765 });
    if (!port.ok) return ctx.usage(port.message);
    const judgeUrl = str(flags, 'judge-url');
    const judgeModel = str(flags, 'judge-model');
    if (!judgeUrl !== !judgeModel) return ctx.usage('--judge-url and --judge-model go together');
    const apiKey = ctx.io.env.COWORKENV_JUDGE_API_KEY || null;
    const judge = judgeUrl && judgeModel ? { judge: { baseUrl: judgeUrl, model: judgeModel, apiKey } } : {};
    let server: Awaited<ReturnType<typeof serveRlPackage>>;
    try {
      const host = str(flags, 'host');
      server = await serveRlPackage({ packageDir, port: port.value, ...(host ? { host } : {}), ...judge });
    } catch (err) {
      return ctx.print({ ok: false, error: { code: 'BAD_REQUEST', message: (err as Error).message } });
    }
    const info = { url: server.url, port: server.port, packageId: server.packageId, judge: judgeModel ?? null };
    if (ctx.json) ctx.out(`${JSON.stringify({ ok: true, data: info })}\n`);
    else ctx.out(`package ${server.packageId} served at ${server.url} (GET / lists the routes; Ctrl+C stops)\n`);
    await (ctx.io.untilStopped ?? (() => new Promise<void>(() => {})))();
    await server.close();
    return 0;
  },
});
