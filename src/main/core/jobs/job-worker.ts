import { parentPort, workerData } from 'node:worker_threads';
import { openDb, readHandle, writeHandle } from '../db/sqlite';
import { bumpTableVersion } from '../events/change-watcher';
import { jobsLedger } from './jobs.repo';
import { JobCancelled, type JobContext } from './job-definition';
import { JOB_DEFINITIONS, type JobName } from './job-registry';

/** Worker thread entry: one job per worker, with its own connection to the workspace. */
export type WorkerData = { workspacePath: string; jobId: string; nativeBinding?: string; clockOffsetMs: number };
export type WorkerMessage = { type: 'progress'; done: number; total: number; message: string; tables: string[] };

const data = workerData as WorkerData;
// The core's clock may be pinned (tests); keep the same offset from the wall clock.
const now = () => new Date(Date.now() + data.clockOffsetMs).toISOString();
const db = openDb(data.workspacePath, data.nativeBinding ? { nativeBinding: data.nativeBinding } : {});
const jobs = jobsLedger(db);

try {
  const job = jobs.get(data.jobId);
  const def = job && Object.hasOwn(JOB_DEFINITIONS, job.name) ? JOB_DEFINITIONS[job.name as JobName] : undefined;
  if (!job || !def) throw new Error(`unknown job ${data.jobId}`);
  const input = jobs.input(job.id) as never;
  jobs.setState(job.id, 'running', now(), { message: job.done > 0 ? `resuming after ${job.done}` : 'running' });
  const ctx: JobContext = {
    jobId: job.id,
    db: readHandle(db),
    now,
    resumeFrom: job.done,
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
  const result = (def.run as (c: JobContext, i: never) => unknown)(ctx, input);
  jobs.finish(job.id, result, now());
} catch (err) {
  if (err instanceof JobCancelled)
    jobs.setState(data.jobId, 'cancelled', now(), { message: 'cancelled; committed batches kept' });
  else jobs.setState(data.jobId, 'failed', now(), { message: 'failed', error: (err as Error).message });
} finally {
  db.close();
}
