import fs from 'node:fs';
import path from 'node:path';
import type { ProcedureName } from '../../shared/contract';
import type { ImportOutcome } from '../../shared/contract/entities/task';
import { validateCommand, type ValidateCommand } from './cli-validate';
import { gradeCommand } from './cli-grade';
import { tracesCommand, type RunCommand } from './cli-traces';

/** A word command that is sugar for one procedure call, with its own human-readable output. */
export type DomainCommand = {
  procedure: ProcedureName;
  input: unknown;
  render(data: unknown, out: (s: string) => void): void;
  /** A job command: the CLI waits for the job, then this prints and answers the exit code. */
  afterJob?: ValidateCommand['afterJob'];
  /** A command of several calls (one per file): it makes them, prints, and answers the exit code. */
  run?: RunCommand;
};

export type DomainOptions = {
  task?: string | undefined;
  calls?: string | undefined;
  clock?: string | undefined;
  errorRate?: string | undefined;
  seed?: string | undefined;
  mode?: string | undefined;
  tasks?: string[];
  all?: boolean | undefined;
  trace?: string | undefined;
  id?: string | undefined;
};

/** `tasks import <path…>` and `env replay …`; answers a usage message for a malformed one. */
export function domainCommand(
  command: string,
  rest: string[],
  o: DomainOptions,
): DomainCommand | { usage: string } | undefined {
  if (command === 'validate') return validateCommand(rest, { tasks: o.tasks ?? [], all: o.all ?? false });
  if (command === 'grade') return gradeCommand({ task: o.task, trace: o.trace });
  if (command === 'traces') return tracesCommand(rest, { task: o.task, id: o.id });
  if (command === 'tasks') {
    if (rest[0] !== 'import' || rest.length < 2) return { usage: 'tasks import <task folder | Claw-Eval root>…' };
    return {
      procedure: 'tasks.import',
      input: { paths: rest.slice(1).map((p) => path.resolve(p)) },
      render: renderImport,
    };
  }
  if (command === 'env') {
    if (rest[0] !== 'replay' || !o.task || !o.calls)
      return {
        usage:
          'env replay --task <id> --calls <file.jsonl> [--clock <ISO instant>] [--mode parity|fixed] [--error-rate 0..1 --seed N]',
      };
    const errorRate = o.errorRate === undefined ? 0 : Number(o.errorRate);
    if (!(errorRate >= 0 && errorRate <= 1))
      return { usage: `--error-rate must be between 0 and 1, not "${o.errorRate}"` };
    const seed = o.seed === undefined ? 1 : Number(o.seed);
    if (!Number.isInteger(seed)) return { usage: `--seed must be an integer, not "${o.seed}"` };
    const mode = o.mode ?? 'parity';
    if (mode !== 'parity' && mode !== 'fixed') return { usage: `--mode must be parity or fixed, not "${o.mode}"` };
    let callsJsonl: string;
    try {
      callsJsonl = fs.readFileSync(o.calls, 'utf8');
    } catch (err) {
      return {
        usage: `cannot read --calls ${o.calls}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      };
    }
    return {
      procedure: 'env.replay',
      input: { taskId: o.task, callsJsonl, errorRate, seed, mode, ...(o.clock ? { clock: o.clock } : {}) },
      render: renderReplay,
    };
  }
  return undefined;
}

function renderImport(data: unknown, out: (s: string) => void): void {
  const d = data as { outcomes: ImportOutcome[]; counts: Record<string, number> };
  for (const o of d.outcomes) {
    out(`${o.status.padEnd(9)} ${o.taskId ?? o.source}${o.version ? ` (v${o.version})` : ''}\n`);
    for (const w of o.warnings) out(`          warning: ${w}\n`);
    for (const e of o.errors) out(`          error: ${e}\n`);
  }
  const c = d.counts;
  out(
    `${c.imported} imported, ${c.updated} updated, ${c.unchanged} unchanged, ${c.errors} with errors, ${c.warnings} warnings\n`,
  );
}

/** JSON lines in the shape of Claw-Eval's recorded goldens: one per dispatch, then {"audit": …}. Bodies keep Python's float text. */
function renderReplay(data: unknown, out: (s: string) => void): void {
  const d = data as {
    dispatches: { tool: string; status: number; isError: boolean; text: string; body: string; repaired?: string }[];
    audits: Record<string, string>;
  };
  for (const x of d.dispatches) {
    const flag = x.repaired ? `, "repaired": ${JSON.stringify(x.repaired)}` : '';
    out(
      `{"tool": ${JSON.stringify(x.tool)}, "status": ${x.status}, "body": ${x.body}, "text": ${JSON.stringify(x.text)}, "is_error": ${x.isError}${flag}}\n`,
    );
  }
  out(
    `{"audit": {${Object.entries(d.audits)
      .map(([k, v]) => `${JSON.stringify(k)}: ${v}`)
      .join(', ')}}}\n`,
  );
}
