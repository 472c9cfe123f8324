import type { ApiResult, Input, Output, ProcedureName } from '../../../shared/contract';
import type { Job } from '../../../shared/contract/jobs.contract';
import type { Core, CreateCoreOptions } from '../../core';

/** What the CLI talks through: injected so tests run it in-process with captured output. */
export type CliIo = {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
  /** Where the built renderer lives (for serve). */
  rendererDir?: string;
  /** Resolves when a long-running command should stop (SIGINT in the real CLI). */
  untilStopped?: () => Promise<void>;
  onServing?: (info: { url: string; token: string }) => void;
  coreOptions?: Partial<CreateCoreOptions>;
};

/** One flag of a command: parseArgs' shape plus what --help says about it. */
export type OptionSpec = {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** The value's placeholder in help (FILE, N, ISO…). */
  value?: string;
  description: string;
};

export type Flags = Record<string, string | boolean | string[] | undefined>;

/** A command's parsed words: what follows its own words, and its flags. */
export type CommandArgs = { positionals: string[]; flags: Flags };

/** What a command's run gets: output, the workspace (opened on first use) and the usual ways to end. */
export type RunContext = {
  io: CliIo;
  json: boolean;
  out(s: string): void;
  err(s: string): void;
  /** Opens the workspace on first use (so usage errors never create one). Throws CliExit on failure. */
  core(): Core;
  workspacePath: string;
  call<N extends ProcedureName>(name: N, input: Input<N>): Promise<ApiResult<Output<N>>>;
  /** Prints an envelope (JSON with --json, else data or the error) and answers 0 or 1. */
  print(result: ApiResult<unknown>, render?: (data: never) => void): number;
  /** A usage error: message on stderr (an envelope with --json) and exit code 2. */
  usage(message: string): number;
  /** Prints a job's progress on stderr until it ends (Ctrl+C cancels it); answers its final row. */
  followJob(jobId: string): Promise<Job>;
};

export type Command = {
  /** The words that name it: ['tasks', 'import']. */
  words: string[];
  /** Positional arguments as help shows them: '<path>…'. */
  args?: string;
  summary: string;
  options?: Record<string, OptionSpec>;
  /** Lines of help after the summary (exit codes, examples). */
  details?: string[];
  /**
   * 'none': the command reads only the files it is given (an export's manifest, a package); its
   * procedures run on an empty in-memory workspace, so it never creates the per-user file.
   */
  workspace?: 'none';
  run(args: CommandArgs, ctx: RunContext): Promise<number>;
};

export const defineCommand = (c: Command): Command => c;

/** Thrown inside a command to end with this exit code (after printing what it needed to). */
export class CliExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** A flag's string value (undefined when absent). */
export const str = (f: Flags, name: string): string | undefined => {
  const v = f[name];
  return typeof v === 'string' ? v : undefined;
};
export const strs = (f: Flags, name: string): string[] => {
  const v = f[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
};
export const bool = (f: Flags, name: string): boolean => f[name] === true;

/** An integer flag in a range, or a usage message. */
export function intFlag(
  f: Flags,
  name: string,
  o: { min: number; max: number; fallback: number },
): { ok: true; value: number } | { ok: false; message: string } {
  const raw = str(f, name);
  if (raw === undefined) return { ok: true, value: o.fallback };
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < o.min || n > o.max)
    return { ok: false, message: `--${name} must be ${o.min}–${o.max}, not "${raw}"` };
  return { ok: true, value: n };
}
