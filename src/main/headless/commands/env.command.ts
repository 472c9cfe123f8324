import fs from 'node:fs';
import type { Output } from '../../../shared/contract';
import { defineCommand, intFlag, str, type Flags } from '../cli/command';

type ReplayOut = Output<'env.replay'>;

/** Flags shared by `env replay` and `services serve`: mode, clock and error injection. */
export const ENV_OPTIONS = {
  task: { type: 'string', value: 'ID', description: 'the stored task whose environment to build' },
  clock: {
    type: 'string',
    value: 'ISO',
    description: 'pin the services’ clock (default: the wall clock, as upstream)',
  },
  mode: {
    type: 'string',
    value: 'parity|fixed',
    description: 'parity (default) or the documented repairs of upstream',
  },
  'error-rate': {
    type: 'string',
    value: 'R',
    description: 'inject 429/500/slow answers at rate R (0–1), off by default',
  },
  seed: { type: 'string', value: 'N', description: 'seed of the error injection (default 1)' },
} as const;

/** The shared environment flags, checked; a usage message when one is malformed. */
export function envFlags(
  flags: Flags,
):
  | { ok: true; mode: 'parity' | 'fixed'; clock?: string; errorRate: number; seed: number }
  | { ok: false; message: string } {
  const mode = str(flags, 'mode') ?? 'parity';
  if (mode !== 'parity' && mode !== 'fixed')
    return { ok: false, message: `--mode must be parity or fixed, not "${mode}"` };
  const clock = str(flags, 'clock');
  if (clock !== undefined && Number.isNaN(new Date(clock).getTime()))
    return { ok: false, message: `--clock must be an ISO instant such as 2026-03-05T09:00:00Z, not "${clock}"` };
  const rateText = str(flags, 'error-rate');
  const errorRate = rateText === undefined ? 0 : Number(rateText);
  if (!(errorRate >= 0 && errorRate <= 1))
    return { ok: false, message: `--error-rate must be between 0 and 1, not "${rateText}"` };
  const seed = intFlag(flags, 'seed', { min: -(2 ** 31), max: 2 ** 31 - 1, fallback: 1 });
  if (!seed.ok) return { ok: false, message: seed.message };
  return { ok: true, mode, ...(clock ? { clock } : {}), errorRate, seed: seed.value };
}

export const envReplayCommand = defineCommand({
  words: ['env', 'replay'],
  summary: 'run tool calls (JSONL) in a fresh environment of a task; JSON lines out',
  options: { ...ENV_OPTIONS, calls: { type: 'string', value: 'FILE', description: 'tool calls, one JSON line each' } },
  details: [
    'Output: one JSON line per call ({"tool", "status", "body", "text", "is_error"}), then {"audit": {…}}: the format',
    "of Claw-Eval's recorded goldens, with --json too (harnesses compare replays line by line).",
  ],
  async run({ flags }, ctx) {
    const task = str(flags, 'task');
    const callsFile = str(flags, 'calls');
    if (!task || !callsFile)
      return ctx.usage(
        'env replay --task <id> --calls <file.jsonl> [--clock <ISO instant>] [--mode parity|fixed] ' +
          '[--error-rate 0..1 --seed N]',
      );
    const env = envFlags(flags);
    if (!env.ok) return ctx.usage(env.message);
    let callsJsonl: string;
    try {
      callsJsonl = fs.readFileSync(callsFile, 'utf8');
    } catch (err) {
      return ctx.usage(
        `cannot read --calls ${callsFile}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
    const { ok: _ok, ...input } = env;
    const r = await ctx.call('env.replay', { taskId: task, callsJsonl, ...input });
    if (!r.ok) return ctx.print(r);
    renderReplay(r.data, ctx.out);
    return 0;
  },
});

/**
 * JSON lines in the shape of Claw-Eval's recorded goldens: one per dispatch, then {"audit": …}. Bodies keep Python's
 * float text.
 */
function renderReplay(d: ReplayOut, out: (s: string) => void): void {
  for (const x of d.dispatches) {
    const flag = x.repaired ? `, "repaired": ${JSON.stringify(x.repaired)}` : '';
    out(
      `{"tool": ${JSON.stringify(x.tool)}, "status": ${x.status}, "body": ${x.body}, "text": ` +
        `${JSON.stringify(x.text)}, "is_error": ${x.isError}${flag}}\n`,
    );
  }
  const audits = Object.entries(d.audits).map(([k, v]) => `${JSON.stringify(k)}: ${v}`);
  out(`{"audit": {${audits.join(', ')}}}\n`);
}
