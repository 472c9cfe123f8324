import type { ReadDb, WriteDb } from '../db/sqlite';

export class JobCancelled extends Error {}

/** What a job's body sees inside the worker thread. */
export type JobContext = {
  /** The job's id (stable across resumes): a body keys what it creates on it. */
  jobId: string;
  /** Reads at any time; writes only inside commitBatch. */
  db: ReadDb;
  now(): string;
  /** Units already committed by an earlier attempt: start after them. */
  resumeFrom: number;
  /**
   * Runs `write` in one transaction together with the cursor update, then reports progress.
   * Throws JobCancelled (after committing nothing more) when cancellation was requested.
   */
  commitBatch(write: (db: WriteDb) => void, doneAfter: number, message: string, tables: string[]): void;
};

/**
 * A job's body. `I` is what its start handler resolved (a resumed job re-reads it from the row);
 * `R` is the contract's `result` of the job procedure, stored when the job ends. Compute the result
 * from the workspace at the end, not from counters: a resumed job skips the committed batches.
 */
export type JobDefinition<I, R> = {
  /** How many units the whole job has, for progress. */
  total(input: I): number;
  run(ctx: JobContext, input: I): R;
};
