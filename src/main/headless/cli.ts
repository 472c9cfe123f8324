import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { contract, isProcedureName, PROCEDURE_NAMES, type ApiResult, type Output } from '../../shared/contract';
import { createCore, type Core } from '../core';
import { parseJsonText } from '../core/lib/json-input';
import { stderrLogger } from '../core/logger';
import { WorkspaceError } from '../core/lib/errors';
import { defaultWorkspacePath } from '../core/workspace/default-path';
import { startHttpServer } from './http';
import { openInBrowser } from './open-browser';
import { domainCommand } from './cli-domain';
import { taskFlags } from './cli-validate';
import { serveEnvironment } from './services-http';
import { seededRandom } from '../core/services/lib';
import type { ErrorInjection } from '../core/services/error-injection';

export type CliIo = {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
  /** Where the built renderer lives (for serve). */
  rendererDir?: string;
  /** Resolves when serve should stop (SIGINT in the real CLI). */
  untilStopped?: () => Promise<void>;
  onServing?: (info: { url: string; token: string }) => void;
  coreOptions?: Partial<Parameters<typeof createCore>[0]>;
};

/** `coworkenv serve` without --port (falls back to a free port when taken). */
export const DEFAULT_PORT = 7357;

export const USAGE = `coworkenv — CoworkEnv Studio from the terminal

Usage:
  coworkenv procedures                      list the procedures (name, kind, summary)
  coworkenv call <procedure> [--input JSON | --input-file FILE]
  coworkenv serve [--port N] [--open]       the app in a browser, on 127.0.0.1 (port 7357, else a free one)
  coworkenv tasks import <path>…            import Claw-Eval task folders or a Claw-Eval root (holding tasks/)
  coworkenv env replay --task ID --calls F [--clock ISO] [--mode parity|fixed] [--error-rate R --seed N]
                                            run tool calls (JSONL) in a fresh environment; JSON lines out
  coworkenv services serve --task ID [--port-base 9100] [--clock ISO] [--mode parity|fixed] [--error-rate R --seed N]
                                            a task's mock services over HTTP at Claw-Eval's routes and ports
  coworkenv validate (--task ID … | --all)  validate stored tasks (a job); per task its status and failed verdicts;
                                            exit 1 when any task is not valid
  coworkenv grade --task ID --trace F.jsonl  grade a Claw-Eval trace against a stored task's checks (exit 0 when
                                            graded, whatever the score)
  coworkenv traces import F.jsonl… [--task ID]  store Claw-Eval traces as trajectories, graded when the task is in
                                            the workspace; the same trace twice is a duplicate (exit 1: a file refused)
  coworkenv traces export --id N            a stored trajectory's trace, byte-identical to the imported file

Global options:
  --workspace FILE   workspace file (default: $COWORKENV_WORKSPACE, else the desktop app's per-user file)
  --empty            a new workspace starts empty instead of with the demo coverage plan
  --json             machine-readable output: the {ok, data | error} envelope
  --verbose          log to stderr
  -h, --help

Exit codes: 0 success, 1 the procedure failed, 2 usage error.`;

const usageError = (io: CliIo, json: boolean, message: string): number => {
  if (json) io.stdout(`${JSON.stringify({ ok: false, error: { code: 'BAD_REQUEST', message } })}\n`);
  io.stderr(`coworkenv: ${message}\n${json ? '' : "Run 'coworkenv --help' for usage.\n"}`);
  return 2;
};

const OPTIONS = {
  workspace: { type: 'string' },
  json: { type: 'boolean' },
  input: { type: 'string' },
  'input-file': { type: 'string' },
  port: { type: 'string' },
  open: { type: 'boolean' },
  task: { type: 'string' },
  all: { type: 'boolean' },
  trace: { type: 'string' },
  id: { type: 'string' },
  calls: { type: 'string' },
  clock: { type: 'string' },
  'port-base': { type: 'string' },
  'error-rate': { type: 'string' },
  seed: { type: 'string' },
  mode: { type: 'string' },
  empty: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let args: ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>>;
  try {
    args = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (err) {
    return usageError(io, argv.includes('--json'), (err as Error).message);
  }
  const {
    values: v,
    positionals: [command, ...rest],
  } = args;
  const json = v.json ?? false;
  if (v.help || !command) {
    io.stdout(`${USAGE}\n`);
    return command || v.help ? 0 : 2;
  }
  if (command === 'procedures') {
    if (json)
      io.stdout(
        `${JSON.stringify({
          ok: true,
          data: PROCEDURE_NAMES.map((n) => ({ name: n, kind: contract[n].kind, summary: contract[n].summary })),
        })}\n`,
      );
    else
      for (const n of PROCEDURE_NAMES)
        io.stdout(`${n.padEnd(22)} ${contract[n].kind.padEnd(9)} ${contract[n].summary}\n`);
    return 0;
  }
  const domain = domainCommand(command, rest, {
    task: v.task,
    calls: v.calls,
    clock: v.clock,
    errorRate: v['error-rate'],
    seed: v.seed,
    mode: v.mode,
    tasks: taskFlags(argv),
    all: v.all,
    trace: v.trace,
    id: v.id,
  });
  if (domain && 'usage' in domain) return usageError(io, json, domain.usage);
  const servingServices = command === 'services';
  if (servingServices && (rest[0] !== 'serve' || !v.task))
    return usageError(io, json, 'services serve --task <id> [--port-base 9100] [--clock <ISO instant>]');
  if (!domain && !servingServices && command !== 'call' && command !== 'serve')
    return usageError(io, json, `unknown command "${command}"`);
  const clock = v.clock === undefined ? undefined : new Date(v.clock);
  if (clock && Number.isNaN(clock.getTime()))
    return usageError(io, json, `--clock must be an ISO instant such as 2026-03-05T09:00:00Z, not "${v.clock}"`);
  const portBase = v['port-base'] === undefined ? 9100 : Number(v['port-base']);
  if (!Number.isInteger(portBase) || portBase < 1024 || portBase > 65000)
    return usageError(io, json, `--port-base must be 1024–65000, not "${v['port-base']}"`);

  let input: unknown;
  if (command === 'call') {
    if (rest.length !== 1) return usageError(io, json, 'call takes exactly one procedure name');
    if (v.input !== undefined && v['input-file'] !== undefined)
      return usageError(io, json, 'give --input or --input-file, not both');
    let text = v.input;
    let source = '--input';
    if (v['input-file'] !== undefined) {
      source = v['input-file'];
      try {
        text = fs.readFileSync(source, 'utf8');
      } catch (err) {
        return usageError(
          io,
          json,
          `cannot read --input-file ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        );
      }
    }
    if (text !== undefined && text.trim() !== '') {
      const parsed = parseJsonText(text, source);
      if (!parsed.ok) return usageError(io, json, parsed.message);
      input = parsed.value;
    }
  }
  const port = v.port === undefined ? DEFAULT_PORT : Number(v.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return usageError(io, json, `--port must be 0–65535, not "${v.port}"`);

  const workspacePath = path.resolve(v.workspace ?? defaultWorkspacePath(io.env));
  const isNew = !fs.existsSync(workspacePath);
  let core: Core;
  try {
    core = createCore({
      workspacePath,
      seedDemo: !v.empty,
      ...(v.verbose ? { logger: stderrLogger } : {}),
      ...io.coreOptions,
    });
  } catch (err) {
    const message =
      err instanceof WorkspaceError ? err.message : `cannot open workspace ${workspacePath}: ${(err as Error).message}`;
    if (json) io.stdout(`${JSON.stringify({ ok: false, error: { code: 'WORKSPACE_ERROR', message } })}\n`);
    io.stderr(`coworkenv: ${message}\n`);
    return 1;
  }
  if (isNew)
    io.stderr(`coworkenv: created workspace ${workspacePath}${v.empty ? '' : ' with the demo coverage plan'}\n`);
  try {
    if (domain) {
      if (domain.run) return await domain.run(core.dispatch, { json, out: io.stdout, err: io.stderr });
      const result = await core.dispatch(domain.procedure, domain.input);
      if (result.ok && domain.afterJob)
        return await domain.afterJob(
          core.dispatch,
          await followJob(core, io, (result.data as { jobId: string }).jobId),
          { json, out: io.stdout },
        );
      if (json || !result.ok) return print(io, json, result);
      domain.render(result.data, io.stdout);
      return 0;
    }
    if (servingServices) {
      if (v.mode !== undefined && v.mode !== 'parity' && v.mode !== 'fixed')
        return usageError(io, json, `--mode must be parity or fixed, not "${v.mode}"`);
      const rate = v['error-rate'] === undefined ? 0 : Number(v['error-rate']);
      if (!(rate >= 0 && rate <= 1))
        return usageError(io, json, `--error-rate must be between 0 and 1, not "${v['error-rate']}"`);
      const errors = rate > 0 ? { rate, random: seededRandom(v.seed === undefined ? 1 : Number(v.seed)) } : undefined;
      return await serveServices(
        core,
        io,
        json,
        v.task!,
        portBase,
        clock,
        v.mode === 'fixed' ? 'fixed' : 'parity',
        errors,
      );
    }
    if (command === 'call') {
      const result = await core.dispatch(rest[0]!, input);
      const code = print(io, json, result);
      const name = rest[0]!;
      // A job runs in this process's worker thread: stay until it ends, or it would die with us.
      if (result.ok && isProcedureName(name) && contract[name].kind === 'job')
        return await followJob(core, io, (result.data as Output<'jobs.resume'>).jobId);
      return code;
    }
    const rendererDir = io.rendererDir ? { rendererDir: io.rendererDir } : {};
    // Without --port: the usual port, so a bookmark keeps working; another free one when it is taken.
    let server: Awaited<ReturnType<typeof startHttpServer>>;
    try {
      server = await startHttpServer({ core, port, ...rendererDir }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EADDRINUSE' || v.port !== undefined) throw err;
        return startHttpServer({ core, port: 0, ...rendererDir });
      });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const message =
        e.code === 'EADDRINUSE'
          ? `port ${port} is in use; pick another with --port (0 = any free port)`
          : `cannot listen on 127.0.0.1:${port}: ${e.message}`;
      if (json) io.stdout(`${JSON.stringify({ ok: false, error: { code: 'BAD_REQUEST', message } })}\n`);
      io.stderr(`coworkenv: ${message}\n`);
      return 1;
    }
    const link = `${server.url}/#token=${server.token}`;
    io.stdout(
      json
        ? `${JSON.stringify({ ok: true, data: { url: server.url, token: server.token, workspace: workspacePath } })}\n`
        : `CoworkEnv Studio (browser mode) on ${link}\nworkspace: ${workspacePath}\nAPI: POST ${server.url}/rpc/<procedure> with "Authorization: Bearer ${server.token}". Ctrl+C stops.\n`,
    );
    io.onServing?.({ url: server.url, token: server.token });
    if (v.open) openInBrowser(link, io.stderr);
    await (io.untilStopped ?? (() => new Promise<void>(() => {})))();
    await server.close();
    return 0;
  } finally {
    await core.close();
  }
}

function print(io: CliIo, json: boolean, r: ApiResult<unknown>): number {
  if (json) io.stdout(`${JSON.stringify(r)}\n`);
  else if (r.ok) io.stdout(`${JSON.stringify(r.data, null, 2)}\n`);
  else {
    io.stderr(`error ${r.error.code}: ${r.error.message}\n`);
    for (const i of r.error.issues ?? []) io.stderr(`  ${i.path.join('.') || '(input)'}: ${i.message}\n`);
  }
  return r.ok ? 0 : 1;
}

/** Prints a job's progress to stderr until it ends; Ctrl+C cancels it (committed batches stay). */
async function followJob(core: Core, io: CliIo, jobId: string): Promise<number> {
  let last = '';
  const off = core.events.on((e) => {
    if (e.event !== 'job.progress' || e.payload.jobId !== jobId) return;
    const line = `${e.payload.state}: ${e.payload.message} (${e.payload.done}/${e.payload.total})`;
    if (line !== last) io.stderr(`job ${jobId.slice(0, 8)} ${(last = line)}\n`);
  });
  let stopped = false;
  void io.untilStopped?.().then(() => {
    stopped = true;
    void core.dispatch('jobs.cancel', { id: jobId });
  });
  // jobs.wait caps one wait at an hour; a longer job is waited for again until it ends.
  let r = await core.dispatch('jobs.wait', { id: jobId, timeoutMs: 3_600_000 });
  while (r.ok && ['queued', 'running'].includes((r.data as { state: string }).state))
    r = await core.dispatch('jobs.wait', { id: jobId, timeoutMs: 3_600_000 });
  off();
  const state = r.ok ? (r.data as { state: string }).state : 'unknown';
  if (stopped)
    io.stderr(`job ${jobId} cancelled; \`coworkenv call jobs.resume --input '{"id":"${jobId}"}'\` continues it\n`);
  return state === 'done' ? 0 : 1;
}

/** `services serve`: the task's mock services on Claw-Eval's ports (shifted by --port-base) until Ctrl+C. */
async function serveServices(
  core: Core,
  io: CliIo,
  json: boolean,
  taskId: string,
  portBase: number,
  clock: Date | undefined,
  mode: 'parity' | 'fixed',
  errors?: ErrorInjection,
): Promise<number> {
  const env = core.taskEnvironment(taskId, () => clock ?? new Date(), mode);
  if (!env)
    return print(io, json, {
      ok: false,
      error: { code: 'NOT_FOUND', message: `task ${taskId} not found; import it first (coworkenv tasks import)` },
    });
  let server: Awaited<ReturnType<typeof serveEnvironment>>;
  try {
    server = await serveEnvironment(env, portBase, errors);
  } catch (err) {
    return print(io, json, {
      ok: false,
      error: { code: 'BAD_REQUEST', message: `cannot listen: ${(err as Error).message}; choose another --port-base` },
    });
  }
  if (json) io.stdout(`${JSON.stringify({ ok: true, data: { task: taskId, ports: server.ports } })}\n`);
  else
    for (const [id, port] of Object.entries(server.ports))
      io.stdout(
        `${id.padEnd(10)} http://127.0.0.1:${port}/${id}/…  (audit: GET /${id}/audit, reset: POST /${id}/reset)\n`,
      );
  await (io.untilStopped ?? (() => new Promise<void>(() => {})))();
  await server.close();
  return 0;
}
