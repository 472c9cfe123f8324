import { z } from 'zod';
import { job, mutation, query } from './define';

export const JobState = z.enum(['queued', 'running', 'done', 'failed', 'cancelled', 'interrupted']);
export const Job = z.object({
  id: z.string(),
  name: z.string(),
  state: JobState,
  done: z.number().int(),
  total: z.number().int(),
  message: z.string(),
  error: z.string().nullable(),
  /** The parameters it was started with (its procedure's input). */
  input: z.unknown(),
  /** What the finished job left (its procedure's `result`); null until it is done. */
  result: z.unknown(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Job = z.infer<typeof Job>;

export const jobsContract = {
  'jobs.list': query({
    summary: 'Recent jobs, newest first.',
    input: z.object({ limit: z.number().int().min(1).max(500).default(50) }).default({ limit: 50 }),
    output: z.array(Job),
  }),
  'jobs.get': query({ summary: 'One job by id.', input: z.object({ id: z.string() }), output: Job }),
  'jobs.wait': query({
    summary: 'Wait until a job of this process ends (or the timeout passes) and answer its state.',
    input: z.object({ id: z.string(), timeoutMs: z.number().int().min(0).max(3_600_000).default(600_000) }),
    output: Job,
  }),
  'jobs.cancel': mutation({
    summary: 'Ask a running job to stop after its current batch; committed batches stay.',
    input: z.object({ id: z.string() }),
    output: Job,
  }),
  'jobs.resume': job({
    summary: 'Restart an interrupted, failed or cancelled job; it skips the batches already committed.',
    input: z.object({ id: z.string() }),
    result: z.unknown().describe("the resumed job's own result"),
  }),
} as const;
