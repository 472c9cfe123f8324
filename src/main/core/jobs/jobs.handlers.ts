import type { HandlerMap } from '../lib/handler-types';
import { notFound } from '../lib/errors';
import { jobsRepo } from './jobs.repo';

export const jobsHandlers = {
  'jobs.list': (input, ctx) => jobsRepo(ctx.db).list(input.limit),
  'jobs.get': (input, ctx) => {
    const j = jobsRepo(ctx.db).get(input.id);
    if (!j) throw notFound(`job ${input.id}`);
    return j;
  },
  'jobs.wait': (input, ctx) => ctx.jobs.wait(input.id, input.timeoutMs),
  'jobs.cancel': (input, ctx) => {
    const j = ctx.jobs.cancel(input.id);
    ctx.touch('jobs');
    return j;
  },
  'jobs.resume': (input, ctx) => ({ jobId: ctx.jobs.resume(input.id).id }),
} satisfies Partial<HandlerMap>;
