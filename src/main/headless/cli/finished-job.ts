import type { Job } from '../../../shared/contract/jobs.contract';
import type { RunContext } from './command';

export type FinishOptions = {
  /** The message when the job row carries no error (default: the state it ended in). */
  ended?: (state: Job['state']) => string;
  /** A line for stderr without --json (the progress lines already showed the state), or nothing. */
  explain?: (message: string, job: Job) => string | undefined;
};

/**
 * Follows a job to its end: the finished row when it is done; otherwise the failure is reported (an
 * INTERNAL envelope with --json) and the answer is null, for the command to exit 1.
 */
export async function finishedJob(ctx: RunContext, jobId: string, opts: FinishOptions = {}): Promise<Job | null> {
  const job = await ctx.followJob(jobId);
  if (job.state === 'done') return job;
  const message = job.error ?? opts.ended?.(job.state) ?? job.state;
  if (ctx.json) ctx.out(`${JSON.stringify({ ok: false, error: { code: 'INTERNAL', message } })}\n`);
  else {
    const line = opts.explain?.(message, job);
    if (line) ctx.err(`${line}\n`);
  }
  return null;
}
