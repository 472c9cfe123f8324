import type { z } from 'zod';
import type { Job } from './jobs.contract';
import { contract, type Contract, type ProcedureName } from './index';

/** Job procedures that have a body (jobs.resume restarts another job's body). */
export type JobName = Exclude<
  { [N in ProcedureName]: Contract[N]['kind'] extends 'job' ? N : never }[ProcedureName],
  'jobs.resume'
>;

/** What a job stores as its result: the contract's `result` schema of the job procedure. */
export type JobResult<N extends JobName> = z.output<NonNullable<Contract[N]['result']>>;

/**
 * A done job's result, typed and checked against its procedure's `result` schema, so the CLI and the
 * renderer read job results without casting. An error when the job is another procedure's, is not done,
 * or its stored result does not match (a workspace written by another version).
 */
export function jobResult<N extends JobName>(job: Job, name: N): JobResult<N> {
  if (job.name !== name) throw new Error(`job ${job.id} is a ${job.name} job, not ${name}`);
  if (job.state !== 'done' || job.result === null || job.result === undefined)
    throw new Error(`job ${job.id} (${name}) is ${job.state}: it has no result yet`);
  // The contract maps each job name to its result schema; TypeScript cannot follow a generic index here.
  const schema = contract[name].result as unknown as z.ZodType<JobResult<N>>;
  const parsed = schema.safeParse(job.result);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new Error(
      `job ${job.id} (${name}): stored result does not match: ${i.path.join('.') || '(result)'}: ${i.message}`,
    );
  }
  return parsed.data;
}
