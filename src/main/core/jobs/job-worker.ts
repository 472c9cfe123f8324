import { parentPort, Worker, workerData } from 'node:worker_threads';
import { openDb, readHandle, writeHandle } from '../db/sqlite';
import { bumpTableVersion } from '../events/change-watcher';
import { jobsLedger } from './jobs.repo';
import { JobCancelled, type HelperEnv, type JobContext } from './job-definition';
import { JOB_DEFINITIONS, JOB_HELPERS, type JobName } from './job-registry';

/** Worker thread entry: one job per worker, with its own connection to the workspace. */
export type WorkerData = {
  workspacePath: string;
  jobId: string;
  nativeBinding?: string;
  clockOffsetMs: number;
  /** This script and its Node flags, so the job can start helper threads on it. */
  entry: string;
  execArgv: string[];
};
/** The same entry started as a job's helper thread (JobContext.startHelper). */
type HelperData = HelperEnv & { helper: keyof typeof JOB_HELPERS; data: unknown };
export type WorkerMessage = { type: 'progress'; done: number; total: number; message: string; tables: string[] };

function runJob(data: WorkerData): void {
  // The core's clock may be pinned (tests); keep the same offset from the wall clock.
  const now = () => new Date(Date.now() + data.clockOffsetMs).toISOString();
  const db = openDb(data.workspacePath, data.nativeBinding ? { nativeBinding: data.nativeBinding } : {});
  // Jobs write in bulk: checkpoint every 64 MB of WAL instead of every 4 MB. Each checkpoint syncs
  // the file, and on slow disks those syncs, not the writes, were most of a large import's time
  // (bench/trajectory-import). The WAL is cut back to 64 MB after each checkpoint.
  db.pragma('wal_autocheckpoint = 16384');
  db.pragma('journal_size_limit = 67108864');
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
      startHelper(helper, helperData, transferList = []) {
        const env: HelperData = {
          helper,
          data: helperData,
          workspacePath: data.workspacePath,
          ...(data.nativeBinding ? { nativeBinding: data.nativeBinding } : {}),
        };
        return new Worker(data.entry, { workerData: env, execArgv: data.execArgv, transferList });
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
}

const data = workerData as WorkerData | HelperData;
if ('helper' in data) JOB_HELPERS[data.helper](data.data, data);
else runJob(data);
