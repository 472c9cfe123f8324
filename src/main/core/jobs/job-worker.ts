import { parentPort, workerData } from 'node:worker_threads';
import { openDb, readHandle, writeHandle } from '../db/sqlite';
import { memorySecrets } from '../endpoints/key-store';
import { bumpTableVersion } from '../events/change-watcher';
import { jobsLedger } from './jobs.repo';
import { JobCancelled, type JobContext } from './job-definition';
import { JOB_DEFINITIONS, type JobName } from './job-registry';

/** Worker thread entry: one job per worker, with its own connection to the workspace. */
export type WorkerData = {
  workspacePath: string;
  jobId: string;
  nativeBinding?: string;
  clockOffsetMs: number;
  /** Endpoint keys from the OS keychain, decrypted by the main process (kept in memory only). */
  secrets?: Record<string, string>;
};
export type WorkerMessage = { type: 'progress'; done: number; total: number; message: string; tables: string[] };

const data = workerData as WorkerData;
// The core's clock may be pinned (tests); keep the same offset from the wall clock.
const now = () => new Date(Date.now() + data.clockOffsetMs).toISOString();
const db = openDb(data.workspacePath, data.nativeBinding ? { nativeBinding: data.nativeBinding } : {});
const jobs = jobsLedger(db);

/** How often an async job looks for a cancellation request made through the workspace. */
const CANCEL_POLL_MS = 250;
const abort = new AbortController();

async function main(): Promise<void> {
  const job = jobs.get(data.jobId);
  const def = job && Object.hasOwn(JOB_DEFINITIONS, job.name) ? JOB_DEFINITIONS[job.name as JobName] : undefined;
  if (!job || !def) throw new Error(`unknown job ${data.jobId}`);
  const input = jobs.input(job.id) as never;
  jobs.setState(job.id, 'running', now(), { message: job.done > 0 ? `resuming after ${job.done}` : 'running' });
  const poll = setInterval(() => {
    if (jobs.cancelRequested(job.id)) abort.abort(new JobCancelled());
  }, CANCEL_POLL_MS);
  const ctx: JobContext = {
    db: readHandle(db),
    now,
    resumeFrom: job.done,
    keys: { secrets: data.secrets ? memorySecrets(data.secrets) : null, env: process.env },
    signal: abort.signal,
    commitBatch(write, doneAfter, message, tables) {
      if (jobs.cancelRequested(job.id)) throw new JobCancelled();
      // IMMEDIATE, like the dispatcher: a batch that reads before it writes must not fail on a concurrent commit.
      db.transaction(() => {
        write(writeHandle(db));
        jobs.advance(job.id, doneAfter, message, now());
        for (const t of tables) bumpTableVersion(db, t);
      }).immediate();
      parentPort!.postMessage({
        type: 'progress',
        done: doneAfter,
        total: job.total,
        message,
        tables,
      } satisfies WorkerMessage);
    },
  };
  try {
    const result = await (def.run as (c: JobContext, i: never) => unknown)(ctx, input);
    jobs.finish(job.id, result, now());
  } finally {
    clearInterval(poll);
  }
}

main()
  .catch((err) => {
    // Our own signal fired: whatever the awaited call wrapped the abort in, this is a cancellation.
    const cancelled = err instanceof JobCancelled || abort.signal.aborted;
    if (cancelled) jobs.setState(data.jobId, 'cancelled', now(), { message: 'cancelled; committed batches kept' });
    else jobs.setState(data.jobId, 'failed', now(), { message: 'failed', error: (err as Error).message });
  })
  .finally(() => db.close());
