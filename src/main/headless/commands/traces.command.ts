import fs from 'node:fs';
import type { Output } from '../../../shared/contract';
import { defineCommand, str, type RunContext } from '../cli/command';

/**
 * `traces import <file.jsonl>… [--task <id>]`: one trajectories.importTrace per file, each in its
 * own transaction, so one bad file is reported and the others are still stored (exit 1 then).
 */
export const tracesImportCommand = defineCommand({
  words: ['traces', 'import'],
  args: '<file.jsonl>…',
  summary: 'store Claw-Eval traces as trajectories, graded when their task is in the workspace',
  options: { task: { type: 'string', value: 'ID', description: 'the task the traces belong to (default: their own)' } },
  details: ['The same trace twice is a duplicate, not stored again. Exit code 1 when a file was refused.'],
  async run({ positionals, flags }, ctx) {
    if (!positionals.length) return ctx.usage('traces import <file.jsonl>… [--task <id>]');
    const files: { file: string; text: string }[] = [];
    for (const file of positionals) {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (err) {
        return ctx.usage(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
      if (!text.trim()) return ctx.usage(`${file} is empty`);
      files.push({ file, text });
    }
    return importFiles(ctx, files, str(flags, 'task'));
  },
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

async function importFiles(
  ctx: RunContext,
  files: { file: string; text: string }[],
  task: string | undefined,
): Promise<number> {
  const io = ctx;
  const n = { stored: 0, duplicate: 0, refused: 0 };
  for (const { file, text } of files) {
    const r = await ctx.call('trajectories.importTrace', { traceJsonl: text, ...(task ? { taskId: task } : {}) });
    if (io.json) io.out(`${JSON.stringify({ file, ...r })}\n`);
    if (!r.ok) {
      n.refused++;
      io.err(`${file}: error ${r.error.code}: ${r.error.message}\n`);
      // "file:line: message", the form editors and terminals link to the line.
      for (const i of r.error.issues ?? []) io.err(`  ${file}${lineOf(i.path)}: ${i.message}\n`);
      continue;
    }
    const d = r.data;
    n[d.duplicate ? 'duplicate' : 'stored']++;
    if (io.json) continue;
    const grade = d.graded ? `score ${d.score} — ${d.passed ? 'passed' : 'not passed'}` : 'ungraded';
    io.out(`${(d.duplicate ? 'duplicate' : 'stored').padEnd(9)} #${d.id} ${d.taskId}: ${grade}  (${file})\n`);
    for (const w of d.warnings) io.out(`          warning: ${w}\n`);
  }
  if (!io.json) io.out(`${n.stored} stored, ${n.duplicate} duplicates, ${n.refused} refused\n`);
  return n.refused ? 1 : 0;
}

const lineOf = (p: (string | number)[]) => {
  const m = /^line (\d+)$/.exec(String(p[1] ?? ''));
  return m ? `:${m[1]}` : '';
};
