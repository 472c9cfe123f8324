import type { Slot } from '../../../shared/contract/entities/slot';
import { slotsRepo } from '../plan/slots.repo';
import { prepareCached } from '../db/sqlite';
import type { Input } from '../../../shared/contract';
import { endpointsRepo } from '../endpoints/endpoints.repo';
import { keyStatus } from '../endpoints/key-store';
import type { QueryContext } from '../context';
import { AppError } from '../lib/errors';
import type { HandlerMap } from '../lib/handler-types';
import type { GenerationUnit } from './generation.job';
import { generationRepo } from './generation.repo';
import { checkSlot } from './procedural/generate';

/** The llm generator's endpoint, checked before the job starts (its key too: without one every candidate fails). */
function checkEndpoint(input: Input<'generation.run'>, ctx: QueryContext): string | undefined {
  if (input.generator !== 'llm') {
    if (input.endpoint)
      throw new AppError('INVALID_INPUT', 'an endpoint is for the llm generator; nothing was generated', [
        { path: ['endpoint'], message: 'only with generator "llm"' },
      ]);
    return undefined;
  }
  if (!input.endpoint)
    throw new AppError('INVALID_INPUT', 'the llm generator needs an endpoint (coworkenv endpoints list)', [
      { path: ['endpoint'], message: 'required with generator "llm"' },
    ]);
  const row = endpointsRepo(ctx.db).get(input.endpoint);
  if (!row)
    throw new AppError('NOT_FOUND', `endpoint "${input.endpoint}" not found; nothing was generated`, [
      { path: ['endpoint'], message: 'no such endpoint' },
    ]);
  const key = keyStatus(row, ctx.keys);
  if (!key.present)
    throw new AppError('INVALID_INPUT', `endpoint "${row.name}" has no key: ${key.where}; nothing was generated`, [
      { path: ['endpoint'], message: 'no key' },
    ]);
  return row.name;
}

/** Candidates per committed batch: a batch generates and validates in well under a second. */
const BATCH = 20;

export const generationHandlers = {
  'generation.run': (input, ctx) => {
    const endpoint = checkEndpoint(input, ctx);
    const slots = slotsRepo(ctx.db);
    const repo = generationRepo(ctx.db);
    let ids: number[];
    if (typeof input.slots === 'object') {
      ids = [...new Set(input.slots.ids)];
      const missing = input.slots.ids.flatMap((id, i) => (slots.get(id) ? [] : [{ id, i }]));
      if (missing.length)
        throw new AppError(
          'NOT_FOUND',
          `slot ${missing
            .map((m) => m.id)
            .slice(0, 10)
            .join(', ')} not found; nothing was generated`,
          missing.map((m) => ({ path: ['slots', 'ids', m.i], message: 'no such slot' })),
        );
    } else
      ids = (prepareCached(ctx.db, 'SELECT id FROM coverage_slots ORDER BY id').all() as { id: number }[]).map(
        (r) => r.id,
      );
    const counts = new Map(repo.slotCounts(ids).map((c) => [c.slotId, c]));
    const units: GenerationUnit[] = [];
    const problems: string[] = [];
    for (const id of ids) {
      const slot = slots.get(id) as Slot;
      const c = counts.get(id)!;
      const missing = Math.max(0, c.target - c.validTasks);
      if (input.slots === 'below_target' && missing === 0) continue;
      const count = input.perSlot ?? missing;
      if (!count) continue;
      const checked = checkSlot(slot);
      if (!checked.slot) {
        problems.push(...checked.problems);
        continue;
      }
      const notes = input.generator === 'llm' && slot.notes ? { notes: slot.notes } : {};
      units.push({ slot: { ...checked.slot, id, ...notes }, start: repo.nextIndex(id, input.seed), count });
    }
    return {
      jobId: ctx.jobs.start('generation.run', {
        generator: input.generator,
        seed: input.seed,
        batchSize: BATCH,
        units,
        problems,
        ...(endpoint ? { endpoint, concurrency: input.concurrency } : {}),
      }),
    };
  },
  'generation.coverage': (_input, ctx) => generationRepo(ctx.db).coverage(),
  'generation.slotCounts': (input, ctx) => ({ slots: generationRepo(ctx.db).slotCounts(input.slotIds) }),
  'generation.candidates': (input, ctx) => {
    if (!slotsRepo(ctx.db).get(input.slotId))
      throw new AppError('NOT_FOUND', `slot ${input.slotId} not found`, [
        { path: ['slotId'], message: 'no such slot' },
      ]);
    return generationRepo(ctx.db).candidates(input);
  },
} satisfies Partial<HandlerMap>;
