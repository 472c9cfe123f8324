import fs from 'node:fs';
import { contract, isProcedureName } from '../../../shared/contract';
import { parseJsonText } from '../../core/lib/json-input';
import { defineCommand, str } from '../cli/command';

export const callCommand = defineCommand({
  words: ['call'],
  args: '<procedure>',
  summary: 'call one procedure with a JSON input; a job is followed until it ends',
  options: {
    input: { type: 'string', value: 'JSON', description: 'the input as JSON text' },
    'input-file': { type: 'string', value: 'FILE', description: 'the input from a JSON file' },
  },
  details: ['`coworkenv procedures` lists the procedures; `GET /rpc` over HTTP gives their JSON Schemas.'],
  async run({ positionals, flags }, ctx) {
    if (positionals.length !== 1) return ctx.usage('call takes exactly one procedure name');
    const inline = str(flags, 'input');
    const file = str(flags, 'input-file');
    if (inline !== undefined && file !== undefined) return ctx.usage('give --input or --input-file, not both');
    let text = inline;
    let source = '--input';
    if (file !== undefined) {
      source = file;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
        return ctx.usage(`cannot read --input-file ${file}: ${code}`);
      }
    }
    let input: unknown;
    if (text !== undefined && text.trim() !== '') {
      const parsed = parseJsonText(text, source);
      if (!parsed.ok) return ctx.usage(parsed.message);
      input = parsed.value;
    }
    const name = positionals[0]!;
    const result = await ctx.core().dispatch(name, input);
    const code = ctx.print(result);
    // A job runs in this process's worker thread: stay until it ends, or it would die with us.
    if (result.ok && isProcedureName(name) && contract[name].kind === 'job') {
      const job = await ctx.followJob((result.data as { jobId: string }).jobId);
      return job.state === 'done' ? 0 : 1;
    }
    return code;
  },
});
