import type { Job } from '../../../shared/contract/jobs.contract';
import { jobResult, type JobName, type JobResult } from '../../../shared/contract/job-result';

/** States after which a job writes nothing more: its row is final and fetched once. */
const FINAL: ReadonlySet<string> = new Set(['done', 'failed', 'cancelled', 'interrupted']);
export const isFinalState = (state: string) => FINAL.has(state);

/** How a finished job ended: its typed, schema-checked result, or why there is none. */
export type JobOutcome<N extends JobName> =
  | { ok: true; job: Job; result: JobResult<N> }
  | { ok: false; job: Job; reason: string };

/**
 * The outcome of a job's final row, read as the `name` procedure's job. A stored result that does not
 * match the contract (another version's workspace) is a failure with jobResult's message, not a crash.
 */
export function jobOutcome<N extends JobName>(job: Job, name: N): JobOutcome<N> {
  if (job.state !== 'done') return { ok: false, job, reason: `${job.state}: ${job.error ?? job.message}` };
  try {
    return { ok: true, job, result: jobResult(job, name) };
  } catch (e) {
    return { ok: false, job, reason: (e as Error).message };
  }
}
