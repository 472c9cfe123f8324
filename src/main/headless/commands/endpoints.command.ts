import type { Endpoint, EndpointTestResult } from '../../../shared/contract/endpoints.contract';
import { defineCommand, str, type Flags, type OptionSpec, type RunContext } from '../cli/command';

/**
 * `coworkenv endpoints add|list|test|remove`. From the terminal a key comes from an environment
 * variable (the endpoint stores its NAME: default COWORKENV_KEY_<NAME>) or there is none (local
 * servers); the OS keychain is the desktop app's (Settings page).
 */
const SETTINGS: Record<string, OptionSpec> = {
  'base-url': { type: 'string', value: 'URL', description: 'the server, e.g. http://127.0.0.1:8000/v1' },
  model: { type: 'string', value: 'NAME', description: 'the model name the server serves' },
  'key-source': { type: 'string', value: 'env|none', description: 'where the key comes from (default env)' },
  'key-env': {
    type: 'string',
    value: 'VAR',
    description: 'the environment variable holding the key (default COWORKENV_KEY_<NAME>)',
  },
  temperature: { type: 'string', value: 'T', description: 'default sampling temperature (0–2)' },
  'max-tokens': { type: 'string', value: 'N', description: 'default completion token limit' },
  'timeout-ms': { type: 'string', value: 'MS', description: 'per-request timeout (default 60000)' },
};

/** Numeric flags as numbers; a bad one is a usage message. */
function settingsOf(flags: Flags): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  const value: Record<string, unknown> = {};
  const text: [string, string][] = [
    ['base-url', 'base_url'],
    ['model', 'model'],
    ['key-source', 'key_source'],
    ['key-env', 'key_env'],
  ];
  for (const [flag, field] of text) if (str(flags, flag) !== undefined) value[field] = str(flags, flag);
  for (const [flag, field] of [
    ['temperature', 'temperature'],
    ['max-tokens', 'max_tokens'],
    ['timeout-ms', 'timeout_ms'],
  ] as const) {
    const raw = str(flags, flag);
    if (raw === undefined) continue;
    const n = Number(raw);
    if (raw.trim() === '' || Number.isNaN(n)) return { ok: false, message: `--${flag} must be a number, not "${raw}"` };
    value[field] = n;
  }
  return { ok: true, value };
}

const caps = (v: boolean | null) => (v === null ? '?' : v ? 'yes' : 'no');

function printEndpoint(ctx: RunContext, e: Endpoint): void {
  ctx.out(`${e.name}  ${e.model} @ ${e.base_url}\n`);
  ctx.out(`  key: ${e.key_source} — ${e.key.where}${e.key.present ? '' : '  ← missing'}\n`);
  ctx.out(`  tool calls: ${caps(e.tool_calls)}  JSON mode: ${caps(e.json_mode)}  timeout: ${e.timeout_ms} ms\n`);
  if (e.last_test)
    ctx.out(`  last test (${e.last_test.at}): ${e.last_test.ok ? 'ok' : 'FAILED'} — ${e.last_test.message}\n`);
}

function printTest(ctx: RunContext, name: string, t: EndpointTestResult): void {
  if (!t.ok) {
    ctx.out(`${name}: FAILED (${t.problem}) — ${t.message}\n`);
    return;
  }
  ctx.out(`${name}: ok — answered in ${t.latency_ms} ms\n`);
  ctx.out(`  tool calls: ${t.tool_calls} — ${t.tool_calls_detail}\n`);
  ctx.out(`  JSON mode:  ${t.json_mode} — ${t.json_mode_detail}\n`);
}

export const endpointsAddCommand = defineCommand({
  words: ['endpoints', 'add'],
  args: '<name>',
  summary: 'add a model endpoint (OpenAI-compatible); its key from an environment variable, or none',
  options: SETTINGS,
  details: [
    'Example: coworkenv endpoints add local-qwen --base-url http://127.0.0.1:8000/v1 --model qwen3-8b --key-source ' +
      'none',
    'The key itself is never stored in the workspace: set the variable (default COWORKENV_KEY_<NAME>) where you run.',
  ],
  async run({ positionals, flags }, ctx) {
    if (positionals.length !== 1) return ctx.usage('endpoints add <name> --base-url URL --model NAME [options]');
    const s = settingsOf(flags);
    if (!s.ok) return ctx.usage(s.message);
    const input = { key_source: 'env', ...s.value, name: positionals[0] } as never;
    return ctx.print(await ctx.call('endpoints.add', input), (e: Endpoint) => printEndpoint(ctx, e));
  },
});

export const endpointsUpdateCommand = defineCommand({
  words: ['endpoints', 'update'],
  args: '<name>',
  summary: "change an endpoint's settings or key source",
  options: SETTINGS,
  async run({ positionals, flags }, ctx) {
    if (positionals.length !== 1) return ctx.usage('endpoints update <name> [options]');
    const s = settingsOf(flags);
    if (!s.ok) return ctx.usage(s.message);
    const input = { ...s.value, name: positionals[0] } as never;
    return ctx.print(await ctx.call('endpoints.update', input), (e: Endpoint) => printEndpoint(ctx, e));
  },
});

export const endpointsListCommand = defineCommand({
  words: ['endpoints', 'list'],
  summary: 'model endpoints with their key source and whether the key is present (never the key)',
  async run({ positionals }, ctx) {
    if (positionals.length) return ctx.usage('endpoints list takes no arguments');
    return ctx.print(await ctx.call('endpoints.list', {}), (d: { endpoints: Endpoint[] }) => {
      if (!d.endpoints.length) ctx.out('no endpoints; add one with `coworkenv endpoints add`\n');
      for (const e of d.endpoints) printEndpoint(ctx, e);
    });
  },
});

export const endpointsTestCommand = defineCommand({
  words: ['endpoints', 'test'],
  args: '<name>',
  summary: 'one tiny chat request: latency, tool calls, JSON mode; saves what it found',
  details: [
    'Tells unreachable, refused key (401/403) and unknown model (404) apart. Exit code 1 when the test failed.',
  ],
  async run({ positionals }, ctx) {
    if (positionals.length !== 1) return ctx.usage('endpoints test <name>');
    const name = positionals[0]!;
    const r = await ctx.call('endpoints.test', { name });
    if (!r.ok) return ctx.print(r);
    const saved = await ctx.call('endpoints.update', { name, last_test: r.data });
    if (!saved.ok) return ctx.print(saved);
    // --json: the procedure's envelope (ok: it ran); whether the endpoint works is data.ok and the exit code.
    if (ctx.json) ctx.out(`${JSON.stringify(r)}\n`);
    else printTest(ctx, name, r.data);
    return r.data.ok ? 0 : 1;
  },
});

export const endpointsRemoveCommand = defineCommand({
  words: ['endpoints', 'remove'],
  args: '<name>',
  summary: 'remove a model endpoint',
  async run({ positionals }, ctx) {
    if (positionals.length !== 1) return ctx.usage('endpoints remove <name>');
    const r = await ctx.call('endpoints.remove', { name: positionals[0]! });
    return ctx.print(r, (d: { removed: boolean }) =>
      ctx.out(d.removed ? `removed ${positionals[0]}\n` : `no endpoint named ${positionals[0]}\n`),
    );
  },
});
