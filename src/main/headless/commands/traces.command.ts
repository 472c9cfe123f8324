import type { Output } from '../../../shared/contract';
import { defineCommand, str } from '../cli/command';
import { runImport } from './trajectories.command';

/** `traces import <file.jsonl>… [--task <id>]`: kept as an alias of `trajectories import` (Claw-Eval traces). */
export const tracesImportCommand = defineCommand({
  words: ['traces', 'import'],
  args: '<file.jsonl or folder>…',
  summary: 'store Claw-Eval traces as trajectories (an alias of `trajectories import --format claw-eval`)',
  options: {
    task: { type: 'string', value: 'ID', description: 'the task the traces belong to (default: their own)' },
    collection: { type: 'string', value: 'NAME', description: "the collection (default: the traces' folder name)" },
  },
  details: ['The same trace twice is a duplicate, not stored again. Exit code 1 when a trace was refused.'],
  run: (args, ctx) => runImport(args, ctx, 'claw-eval'),
});

/** `traces export --id <n>`: the stored trace's bytes on stdout, nothing added. */
export const tracesExportCommand = defineCommand({
  words: ['traces', 'export'],
  summary: "a stored trajectory's trace, byte-identical to the imported file",
  options: { id: { type: 'string', value: 'N', description: 'the trajectory id' } },
  async run({ positionals, flags }, ctx) {
    const raw = str(flags, 'id');
    const id = Number(raw);
    if (positionals.length || raw === undefined || !Number.isInteger(id) || id < 1)
      return ctx.usage(
        raw === undefined
          ? 'traces export --id <n> [> file.jsonl]'
          : `--id must be a trajectory id (a positive integer), not "${raw}"`,
      );
    return ctx.print(await ctx.call('trajectories.exportTrace', { id }), (d: Output<'trajectories.exportTrace'>) =>
      ctx.out(d.traceJsonl),
    );
  },
});
