import fs from 'node:fs';
import path from 'node:path';
import type { ApiResult, Output } from '../../../shared/contract';
import { defineCommand, str } from '../cli/command';

export const planImportCsvCommand = defineCommand({
  words: ['plan', 'import-csv'],
  args: '<file.csv>',
  summary: 'import coverage-plan slots from CSV (a row whose id exists updates it; other rows are added)',
  details: [
    'Header: id, family, services, category, difficulty, language, reference_date, scenario, target_count, notes',
    '(any order; id, target_count and notes may be left out). Services are separated by commas or spaces inside',
    'their quoted cell. Every problem is printed as file:line: field: message; one problem imports nothing (exit 1).',
  ],
  async run({ positionals }, ctx) {
    const [file] = positionals;
    if (!file || positionals.length > 1) return ctx.usage('plan import-csv <file.csv>');
    let csv: string;
    try {
      csv = fs.readFileSync(file, 'utf8');
    } catch (err) {
      return ctx.usage(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    const r = await ctx.call('plan.importCsv', { csv, file });
    if (!r.ok && !ctx.json) {
      for (const i of r.error.issues ?? []) ctx.err(`${i.message}\n`);
      ctx.err(`${r.error.message}\n`);
      return 1;
    }
    return ctx.print(r, (d: { created: number; updated: number }) =>
      ctx.out(`${file}: ${d.created} slots added, ${d.updated} updated\n`),
    );
  },
});

export const planExportCsvCommand = defineCommand({
  words: ['plan', 'export-csv'],
  summary: 'write the coverage plan as CSV (the columns plan import-csv reads), to a file or stdout',
  options: {
    out: { type: 'string', value: 'FILE', description: 'write here (replaced whole, never half-written)' },
  },
  async run({ flags }, ctx) {
    const out = str(flags, 'out');
    const tmp = out ? path.join(path.dirname(path.resolve(out)), `.${path.basename(out)}.${process.pid}.tmp`) : null;
    const fd = tmp ? fs.openSync(tmp, 'w') : null;
    let rows = 0;
    try {
      for (let afterId: number | null = 0; afterId !== null; ) {
        const page: ApiResult<Output<'plan.exportCsv'>> = await ctx.call('plan.exportCsv', { afterId, limit: 10_000 });
        if (!page.ok) return ctx.print(page);
        if (fd !== null) fs.writeSync(fd, page.data.csv);
        else ctx.out(page.data.csv);
        rows += page.data.rows;
        afterId = page.data.nextAfterId;
      }
      if (fd !== null && tmp && out) {
        fs.closeSync(fd);
        fs.renameSync(tmp, out);
        ctx.err(`${out}: ${rows} slots\n`);
      }
      return 0;
    } finally {
      if (tmp && fs.existsSync(tmp)) {
        try {
          fs.closeSync(fd!);
        } catch {}
        fs.rmSync(tmp);
      }
    }
  },
});
