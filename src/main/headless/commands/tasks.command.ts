import path from 'node:path';
import type { Output } from '../../../shared/contract';
import { defineCommand } from '../cli/command';

type ImportOut = Output<'tasks.import'>;

export const tasksImportCommand = defineCommand({
  words: ['tasks', 'import'],
  args: '<path>…',
  summary: 'import Claw-Eval task folders or a Claw-Eval root (holding tasks/)',
  details: ['Exit code 1 when any task could not be imported (the others are imported all the same).'],
  async run({ positionals }, ctx) {
    if (!positionals.length) return ctx.usage('tasks import <task folder | Claw-Eval root>…');
    const r = await ctx.call('tasks.import', { paths: positionals.map((p) => path.resolve(p)) });
    const code = ctx.print(r, (d: ImportOut) => renderImport(d, ctx.out));
    return code || (r.ok && r.data.counts.errors > 0 ? 1 : 0);
  },
});

const counted = (n: number, what: string) => (n ? [`${n} ${what}${n > 1 ? 's' : ''}`] : []);

/** Each task on its line with its counts, then every warning and error of it (none is left out). */
function renderImport(d: ImportOut, out: (s: string) => void): void {
  for (const o of d.outcomes) {
    const said = [...counted(o.errors.length, 'error'), ...counted(o.warnings.length, 'warning')].join(', ');
    const version = o.version ? ` (v${o.version})` : '';
    out(`${o.status.padEnd(9)} ${o.taskId ?? o.source}${version}${said ? ` — ${said}` : ''}\n`);
    for (const w of o.warnings) out(`          warning: ${w}\n`);
    for (const e of o.errors) out(`          error: ${e}\n`);
  }
  const c = d.counts;
  out(
    `${c.imported} imported, ${c.updated} updated, ${c.unchanged} unchanged, ` +
      `${c.errors} with errors, ${c.warnings} warnings\n`,
  );
}
