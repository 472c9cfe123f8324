import type { HandlerMap } from '../lib/handler-types';
import { slotsRepo } from '../plan/slots.repo';
import { AppError, notFound } from '../lib/errors';
import { validate } from './validate';
import { validationRepo } from './validation.repo';

/** Tasks per committed batch: a batch of imports validates in tens of milliseconds. */
const BATCH = 25;

export const validationHandlers = {
  'validation.run': (input, ctx) => {
    const repo = validationRepo(ctx.db);
    const given = [...new Set(input.taskIds ?? [])];
    if (input.all && given.length)
      throw new AppError('INVALID_INPUT', 'give taskIds or all: true, not both', [
        { path: ['all'], message: 'taskIds are given too' },
      ]);
    if (!input.all && !given.length)
      throw new AppError('INVALID_INPUT', 'nothing to validate: give taskIds or all: true', [
        { path: ['taskIds'], message: 'required unless all is true' },
      ]);
    let taskIds = given;
    if (input.all) taskIds = repo.allTaskIds();
    else {
      const found = repo.existing(given);
      const missing = (input.taskIds ?? []).flatMap((id, i) => (found.has(id) ? [] : [{ id, i }]));
      if (missing.length)
        throw new AppError(
          'NOT_FOUND',
          `task ${missing
            .map((m) => m.id)
            .slice(0, 10)
            .join(', ')} not found; nothing was validated`,
          missing.map((m) => ({ path: ['taskIds', m.i], message: 'no such task' })),
        );
    }
    return { jobId: ctx.jobs.start('validation.run', { taskIds, batchSize: BATCH }) };
  },
  'validation.report': (input, ctx) => {
    const repo = validationRepo(ctx.db);
    const status = repo.status(input.taskId);
    if (!status) throw notFound(`task ${input.taskId}`);
    return { taskId: input.taskId, status, rounds: repo.rounds(input.taskId) };
  },
  'validation.check': (input, ctx) => {
    // A spec naming a slot is checked against it, as the same spec stored would be (validation.run).
    const id = (input.spec as { slot_id?: unknown } | null)?.slot_id;
    const slot = typeof id === 'number' ? slotsRepo(ctx.db).get(id) : undefined;
    const { valid, verdicts } = validate(input.spec, [], { now: () => new Date(ctx.now()), ...(slot ? { slot } : {}) });
    return { valid, verdicts };
  },
} satisfies Partial<HandlerMap>;
