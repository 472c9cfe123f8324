import { parentPort, Worker, workerData } from 'node:worker_threads';
import { openDb, readHandle, writeHandle } from '../db/sqlite';
import { memorySecrets } from '../endpoints/key-store';
import { settleCuration } from '../curation/settle';
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
  /** Endpoint keys from the OS keychain, decrypted by the main process (kept in memory only). */
  secrets?: Record<string, string>;
  /** This script and its Node flags, so the job can start helper threads on it. */
  entry: string;
  execArgv: string[];
};
/** The same entry started as a job's helper thread (JobContext.startHelper). */
type HelperData = HelperEnv & { helper: keyof typeof JOB_HELPERS; data: unknown };
export type WorkerMessage = { type: 'progress'; done: number; total: number; message: string; tables: string[] };

/** How often an async job looks for a cancellation request made through the workspace. */
const CANCEL_POLL_MS = 250;

async function runJob(data: WorkerData): Promise<void> {
  // The core's clock may be pinned (tests); keep the same offset from the wall clock.
  const now = () => new Date(Date.now() + data.clockOffsetMs).toISOString();
  const db = openDb(data.workspacePath, data.nativeBinding ? { nativeBinding: data.nativeBinding } : {});
  // Jobs write in bulk: checkpoint every 64 MB of WAL instead of every 4 MB. Each checkpoint syncs
  // the file, and on slow disks those syncs, not the writes, were most of a large import's time
  // (bench/trajectory-import). The WAL is cut back to 64 MB after each checkpoint.
  db.pragma('wal_autocheckpoint = 16384');
  db.pragma('journal_size_limit = 67108864');
  const jobs = jobsLedger(db);
  const abort = new AbortController();
  let poll: NodeJS.Timeout | undefined;
  try {
    const job = jobs.get(data.jobId);
    const def = job && Object.hasOwn(JOB_DEFINITIONS, job.name) ? JOB_DEFINITIONS[job.name as JobName] : undefined;
    if (!job || !def) throw new Error(`unknown job ${data.jobId}`);
    const input = jobs.input(job.id) as never;
    jobs.setState(job.id, 'running', now(), { message: job.done > 0 ? `resuming after ${job.done}` : 'running' });
    poll = setInterval(() => {
      if (jobs.cancelRequested(job.id)) abort.abort(new JobCancelled());
    }, CANCEL_POLL_MS);
    const ctx: JobContext = {
      jobId: job.id,
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
          // A batch of trajectories (import, run): recompute their tasks' statistics in the same commit.
          if (settleCuration(writeHandle(db), now())) bumpTableVersion(db, 'curation_tasks');
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
    const result = await (def.run as (c: JobContext, i: never) => unknown)(ctx, input);
    jobs.finish(job.id, result, now());
  } catch (err) {
    // Our own signal fired: whatever the awaited call wrapped the abort in, this is a cancellation.
    if (err instanceof JobCancelled || abort.signal.aborted)
      jobs.setState(data.jobId, 'cancelled', now(), { message: 'cancelled; committed batches kept' });
    else jobs.setState(data.jobId, 'failed', now(), { message: 'failed', error: (err as Error).message });
  } finally {
    clearInterval(poll);
    db.close();
  }
}

const data = workerData as WorkerData | HelperData;
if ('helper' in data) JOB_HELPERS[data.helper](data.data, data);
else void runJob(data);
