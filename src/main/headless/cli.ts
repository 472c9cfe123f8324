import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ApiResult } from '../../shared/contract';
import { createCore, type Core } from '../core';
import { AppError } from '../core/lib/errors';
import { stderrLogger } from '../core/logger';
import { defaultWorkspacePath } from '../core/workspace/default-path';
import { followJob } from './cli/follow-job';
import { CliExit, type CliIo, type Command, type OptionSpec, type RunContext } from './cli/command';
import { commandHelp, findCommand, usageText } from './cli/help';
import { COMMANDS } from './commands';

export type { CliIo } from './cli/command';
export { DEFAULT_PORT } from './commands/serve.command';

/** Flags every command takes. */
export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  workspace: {
    type: 'string',
    value: 'FILE',
    description: 'workspace file (default: $COWORKENV_WORKSPACE, else the desktop app’s per-user file)',
  },
  empty: { type: 'boolean', description: 'a new workspace starts empty instead of with the demo coverage plan' },
  json: { type: 'boolean', description: 'machine-readable output: the {ok, data | error} envelope' },
  verbose: { type: 'boolean', description: 'log to stderr' },
  help: { type: 'boolean', short: 'h', description: 'this help, or a command’s help after its name' },
};

export const USAGE = usageText(COMMANDS, GLOBAL_OPTIONS);

const toParseArgs = (opts: Record<string, OptionSpec>) =>
  Object.fromEntries(
    Object.entries(opts).map(([k, o]) => [
      k,
      { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) },
    ]),
  );

const envelope = (code: string, message: string) => `${JSON.stringify({ ok: false, error: { code, message } })}\n`;

/** `coworkenv …`: finds the command in the table, parses its flags, runs it; answers the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const usageError = (message: string, command?: Command): number => {
    if (json) io.stdout(envelope('BAD_REQUEST', message));
    const hint = command ? `coworkenv ${command.words.join(' ')} --help` : 'coworkenv --help';
    io.stderr(`coworkenv: ${message}\n${json ? '' : `Run '${hint}' for usage.\n`}`);
    return 2;
  };
  const words = parseArgs({
    args: argv,
    strict: false,
    allowPositionals: true,
    options: toParseArgs(GLOBAL_OPTIONS),
  }).positionals;
  const command = findCommand(COMMANDS, words);
  if (!command) {
    if (!words.length) {
      io.stdout(`${USAGE}\n`);
      return argv.includes('--help') || argv.includes('-h') ? 0 : 2;
    }
    return usageError(`unknown command "${words.slice(0, 2).join(' ')}"`);
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: toParseArgs({ ...GLOBAL_OPTIONS, ...command.options }),
    });
  } catch (err) {
    return usageError((err as Error).message, command);
  }
  const flags = parsed.values as Record<string, string | boolean | string[] | undefined>;
  if (flags.help) {
    io.stdout(`${commandHelp(command, GLOBAL_OPTIONS)}\n`);
    return 0;
  }
  // The command's own words come first among the positionals (flags may stand anywhere).
  const positionals = parsed.positionals.slice(command.words.length);
  const workspacePath = path.resolve((flags.workspace as string | undefined) ?? defaultWorkspacePath(io.env));
  let core: Core | undefined;
  const openCore = (): Core => {
    if (core) return core;
    const fileFree = command.workspace === 'none';
    try {
      core = createCore({
        workspacePath: fileFree ? ':memory:' : workspacePath,
        seedDemo: !fileFree && !flags.empty,
        env: io.env, // endpoint keys from the environment (key source env)
        ...(flags.verbose ? { logger: stderrLogger } : {}),
        ...io.coreOptions,
      });
    } catch (err) {
      const message =
        err instanceof AppError ? err.message : `cannot open workspace ${workspacePath}: ${(err as Error).message}`;
      if (json) io.stdout(envelope(err instanceof AppError ? err.code : 'WORKSPACE_ERROR', message));
      io.stderr(`coworkenv: ${message}\n`);
      throw new CliExit(1);
    }
    if (core.created && !fileFree)
      io.stderr(`coworkenv: created workspace ${workspacePath}${flags.empty ? '' : ' with the demo coverage plan'}\n`);
    return core;
  };
  const ctx: RunContext = {
    io,
    json,
    out: io.stdout,
    err: io.stderr,
    workspacePath,
    core: openCore,
    call: (name, input) => openCore().dispatch(name, input) as never,
    print: (result, render) => print(io, json, result, render as ((data: unknown) => void) | undefined),
    usage: (message) => usageError(message, command),
    followJob: (jobId) => followJob(openCore(), io, jobId),
  };
  try {
    return await command.run({ positionals, flags }, ctx);
  } catch (err) {
    if (err instanceof CliExit) return err.code;
    throw err;
  } finally {
    await core?.close();
  }
}

function print(io: CliIo, json: boolean, r: ApiResult<unknown>, render?: (data: unknown) => void): number {
  if (json) io.stdout(`${JSON.stringify(r)}\n`);
  else if (r.ok) {
    if (render) render(r.data);
    else io.stdout(`${JSON.stringify(r.data, null, 2)}\n`);
  } else {
    io.stderr(`error ${r.error.code}: ${r.error.message}\n`);
    for (const i of r.error.issues ?? []) io.stderr(`  ${i.path.join('.') || '(input)'}: ${i.message}\n`);
  }
  return r.ok ? 0 : 1;
}
