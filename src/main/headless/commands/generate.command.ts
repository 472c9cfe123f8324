import { finishedJob } from '../cli/finished-job';
import { jobResult } from '../../../shared/contract/job-result';
import type { Input } from '../../../shared/contract';
import { GENERATORS, type SlotRunReport } from '../../../shared/contract/generation.contract';
import type { JobResult } from '../../core/jobs/job-types';
import { defineCommand, intFlag, str, strs, type RunContext } from '../cli/command';

type Result = JobResult<'generation.run'>;

/** --slots: all, below-target, or slot ids (repeatable and/or comma-separated). */
function slotsFlag(
  values: string[],
): { ok: true; value: Input<'generation.run'>['slots'] } | { ok: false; message: string } {
  const words = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  if (!words.length) return { ok: true, value: 'below_target' };
  if (words.length === 1 && words[0] === 'all') return { ok: true, value: 'all' };
  if (words.length === 1 && /^below[-_]target$/.test(words[0]!)) return { ok: true, value: 'below_target' };
  const bad = words.find((w) => !/^[1-9]\d*$/.test(w));
  if (bad) return { ok: false, message: `--slots takes all, below-target or slot ids, not "${bad}"` };
  return { ok: true, value: { ids: words.map(Number) } };
}

const accepted = (s: SlotRunReport) => s.validFirstTime + s.repaired;

function render(ctx: RunContext, r: Result, below: boolean): void {
  if (r.slots === 0 && below && !r.problems.length) {
    // A second `generate` on the same plan: every slot has its valid tasks; say so instead of "0 slots".
    ctx.out('nothing to generate: every slot has reached its target (raise target_count, or pass --slots all|ID…)\n');
    return;
  }
  for (const s of r.perSlot) {
    const reasons = s.discardReasons.map((d) => `${d.reason} ${d.count}`).join(', ');
    ctx.out(
      `slot ${s.slotId}: generated ${s.generated}, valid first time ${s.validFirstTime}, repaired ${s.repaired}, ` +
        `discarded ${s.discarded}${reasons ? ` (${reasons})` : ''}${accepted(s) ? '' : ' — nothing valid'}\n`,
    );
  }
  for (const p of r.problems) ctx.err(`${p}\n`);
  if (r.stopped) ctx.err(`stopped early: ${r.stopped}\n`);
  ctx.out(
    `${r.slots} slot${r.slots === 1 ? '' : 's'}, ${r.candidates} candidates: ${r.validFirstTime} valid first time, ` +
      `${r.repaired} repaired, ${r.discarded} discarded` +
      `${r.problems.length ? `; ${r.problems.length} slots skipped` : ''}\n`,
  );
}

export const generateCommand = defineCommand({
  words: ['generate'],
  summary: 'generate tasks for coverage-plan slots (procedural, or a model endpoint) as a job',
  options: {
    slots: {
      type: 'string',
      multiple: true,
      value: 'all|below-target|ID…',
      description: 'which slots (default below-target: slots with fewer valid tasks than their target)',
    },
    'per-slot': { type: 'string', value: 'N', description: "candidates per slot (default: the slot's shortfall)" },
    seed: { type: 'string', value: 'S', description: 'the run seed (default 1); the same seed gives the same tasks' },
    generator: { type: 'string', value: GENERATORS.join('|'), description: 'default procedural (no model needed)' },
    endpoint: { type: 'string', value: 'NAME', description: 'the model endpoint of the llm generator' },
    concurrency: { type: 'string', value: 'N', description: 'llm: requests in flight at once (default 4)' },
  },
  details: [
    'Prints per slot: generated, valid first time, repaired, discarded (with the reasons). Every candidate is',
    'validated and repaired once; accepted ones are stored as tasks linked to their slot. Exit code 1 when a',
    'slot produced nothing valid, the run stopped early, or the job did not finish; 2 on a usage error.',
  ],
  async run({ flags }, ctx) {
    const slots = slotsFlag(strs(flags, 'slots'));
    if (!slots.ok) return ctx.usage(slots.message);
    const perSlot = intFlag(flags, 'per-slot', { min: 1, max: 10_000, fallback: 0 });
    if (!perSlot.ok) return ctx.usage(perSlot.message);
    const seed = intFlag(flags, 'seed', { min: 0, max: 2_147_483_647, fallback: 1 });
    if (!seed.ok) return ctx.usage(seed.message);
    const concurrency = intFlag(flags, 'concurrency', { min: 1, max: 32, fallback: 4 });
    if (!concurrency.ok) return ctx.usage(concurrency.message);
    const generator = str(flags, 'generator') ?? (str(flags, 'endpoint') ? 'llm' : 'procedural');
    if (!(GENERATORS as readonly string[]).includes(generator))
      return ctx.usage(`--generator must be one of ${GENERATORS.join(', ')}, not "${generator}"`);
    const endpoint = str(flags, 'endpoint');
    if (generator === 'llm' && !endpoint)
      return ctx.usage('--generator llm needs --endpoint NAME (coworkenv endpoints list)');
    const started = await ctx.call('generation.run', {
      slots: slots.value,
      seed: seed.value,
      generator: generator as (typeof GENERATORS)[number],
      concurrency: concurrency.value,
      ...(perSlot.value ? { perSlot: perSlot.value } : {}),
      ...(endpoint ? { endpoint } : {}),
    });
    if (!started.ok) return ctx.print(started);
    const job = await finishedJob(ctx, started.data.jobId);
    if (!job) return 1;
    const result = jobResult(job, 'generation.run');
    ctx.print({ ok: true, data: result }, () => render(ctx, result, slots.value === 'below_target'));
    return result.stopped || result.perSlot.some((s) => accepted(s) === 0) ? 1 : 0;
  },
});
