import { contract, PROCEDURE_NAMES } from '../../../shared/contract';
import { defineCommand } from '../cli/command';

export const proceduresCommand = defineCommand({
  words: ['procedures'],
  summary: 'list the procedures (name, kind, summary)',
  async run(_a, ctx) {
    const list = PROCEDURE_NAMES.map((n) => ({ name: n, kind: contract[n].kind, summary: contract[n].summary }));
    if (ctx.json) ctx.out(`${JSON.stringify({ ok: true, data: list })}\n`);
    else for (const p of list) ctx.out(`${p.name.padEnd(22)} ${p.kind.padEnd(9)} ${p.summary}\n`);
    return 0;
  },
});
