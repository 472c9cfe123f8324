import type { TransferListItem, Worker } from 'node:worker_threads';
import type { ReadDb, WriteDb } from '../db/sqlite';
import type { KeyAccess } from '../endpoints/key-store';

export class JobCancelled extends Error {}

/** What a job's body sees inside the worker thread. */
export type JobContext = {
  /** The job's id (stable across resumes): a body keys what it creates on it. */
  jobId: string;
  /** The workspace file the job's connection is on (exports keep their overwrite away from it). */
  workspacePath: string;
  /** Reads at any time; writes only inside commitBatch. */
  db: ReadDb;
  now(): string;
  /** Units already committed by an earlier attempt: start after them. */
  resumeFrom: number;
  /** Endpoint keys for jobs that call models (modelClientFor); never write them anywhere. */
  keys: KeyAccess;
  /**
   * Aborted soon after cancellation is requested (from any process): pass it to model calls and
   * waits so an async job stops at once; the next commitBatch then throws JobCancelled.
   */
  signal: AbortSignal;
  /**
   * Runs `write` in one transaction together with the cursor update, then reports progress.
   * Throws JobCancelled (after committing nothing more) when cancellation was requested.
   */
  commitBatch(write: (db: WriteDb) => void, doneAfter: number, message: string, tables: string[]): void;
  /**
   * Starts a helper thread for parallel work (a body registered in JOB_HELPERS), on the job
   * workers' own entry. The body owns it: terminate it when done, cancelled or failed.
   */
  startHelper(name: HelperName, data: unknown, transferList?: TransferListItem[]): Worker;
};

/** What a helper thread's body gets besides its data: where the workspace is, to open its own connection. */
export type HelperEnv = { workspacePath: string; nativeBinding?: string };
export type HelperName = 'trajectories.parse' | 'runs.episodes' | 'export.queries';
/**
 * A helper thread's body; it ends when the function returns (or its promise settles and nothing
 * is left on its event loop). An async body must catch its own errors and report them to the job.
 */
export type JobHelper = (data: unknown, env: HelperEnv) => void | Promise<void>;

/**
 * A job's body. `I` is what its start handler resolved (a resumed job re-reads it from the row);
 * `R` is the contract's `result` of the job procedure, stored when the job ends. Compute the result
 * from the workspace at the end, not from counters: a resumed job skips the committed batches.
 */
export type JobDefinition<I, R> = {
  /** How many units the whole job has, for progress. */
  total(input: I): number;
  /** May be async (model calls); never await inside commitBatch's write callback. */
  run(ctx: JobContext, input: I): R | Promise<R>;
};
