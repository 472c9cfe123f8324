import type { Db } from '../db/sqlite';

export class JobCancelled extends Error {}

/** What a job's body sees inside the worker thread. */
export type JobContext = {
  db: Db;
  now(): string;
  /** Units already committed by an earlier attempt: start after them. */
  resumeFrom: number;
  /**
   * Runs `write` in one transaction together with the cursor update, then reports progress.
   * Throws JobCancelled (after committing nothing more) when cancellation was requested.
   */
  commitBatch(write: () => void, doneAfter: number, message: string, tables: string[]): void;
};

export type JobDefinition<I> = {
  /** How many units the whole job has, for progress. */
  total(input: I): number;
  run(ctx: JobContext, input: I): void;
};
