import { parentPort, workerData } from 'node:worker_threads';
import { openDb, readHandle, writeHandle } from '../db/sqlite';
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
  /** SQLite's busy timeout per statement (the core's). */
  busyTimeoutMs?: number;
  /** How long one write keeps retrying while another process holds the write lock, before the job fails. */
  busyWaitMs?: number;
};
export type WorkerMessage =
  | { type: 'progress'; done: number; total: number; message: string; tables: string[] }
  /** The worker could not record its own failure (the workspace stayed busy): the runner records it. */
  | { type: 'failed'; error: string };

const data = workerData as WorkerData;
// The core's clock may be pinned (tests); keep the same offset from the wall clock.
const now = () => new Date(Date.now() + data.clockOffsetMs).toISOString();
const db = openDb(data.workspacePath, {
  check: false,
  ...(data.busyTimeoutMs !== undefined ? { busyTimeoutMs: data.busyTimeoutMs } : {}),
  ...(data.nativeBinding ? { nativeBinding: data.nativeBinding } : {}),
});
const jobs = jobsLedger(db);
const busyWaitMs = data.busyWaitMs ?? 60_000;

/** The workspace stayed locked by another writer for the whole wait. */
class StillBusy extends Error {}
const isBusy = (err: unknown) => /^SQLITE_BUSY/.test((err as { code?: string }).code ?? '');

/**
 * Runs a write, retrying while another process holds the write lock (each try waits SQLite's busy
 * timeout), up to busyWaitMs; `waiting` is told once, so the job can say why it makes no progress.
 */
function retryBusy<T>(write: () => T, waiting?: () => void): T {
  const deadline = Date.now() + busyWaitMs;
  for (let told = false; ; ) {
    try {
      return write();
    } catch (err) {
      if (!isBusy(err)) throw err;
      if (Date.now() >= deadline) throw new StillBusy();
      if (!told && waiting) waiting();
      told = true;
    }
  }
}

const post = (m: WorkerMessage) => parentPort!.postMessage(m);

let total = 0;
let done = 0;
try {
  const job = jobs.get(data.jobId);
  const def = job && Object.hasOwn(JOB_DEFINITIONS, job.name) ? JOB_DEFINITIONS[job.name as JobName] : undefined;
  if (!job || !def) throw new Error(`unknown job ${data.jobId}`);
  total = job.total;
  done = job.done;
  const input = jobs.input(job.id) as never;
  const waiting = () =>
    post({
      type: 'progress',
      done,
      total,
      message: 'waiting: the workspace is busy with another write',
      tables: [],
    });
  retryBusy(
    () => jobs.setState(job.id, 'running', now(), { message: job.done > 0 ? `resuming after ${job.done}` : 'running' }),
    waiting,
  );
  const ctx: JobContext = {
    db: readHandle(db),
    now,
    resumeFrom: job.done,
    commitBatch(write, doneAfter, message, tables) {
      if (jobs.cancelRequested(job.id)) throw new JobCancelled();
      // IMMEDIATE, like the dispatcher: a batch that reads before it writes must not fail on a concurrent commit.
      const batch = db.transaction(() => {
        write(writeHandle(db));
        jobs.advance(job.id, doneAfter, message, now());
        for (const t of tables) bumpTableVersion(db, t);
      });
      retryBusy(() => batch.immediate(), waiting);
      done = doneAfter;
      post({ type: 'progress', done: doneAfter, total: job.total, message, tables });
    },
  };
  const result = (def.run as (c: JobContext, i: never) => unknown)(ctx, input);
  retryBusy(() => jobs.finish(job.id, result, now()));
} catch (err) {
  fail(err);
} finally {
  db.close();
}

/** Records how the job ended; when even that cannot be written, hands the error to the runner. */
function fail(err: unknown): void {
  const cancelled = err instanceof JobCancelled;
  const error = cancelled
    ? null
    : err instanceof StillBusy
      ? `the workspace stayed busy with another process's write for ${Math.round(busyWaitMs / 1000)} s (BUSY); the batches committed before are kept — resume the job to continue`
      : (err as Error).message;
  if (error !== null) post({ type: 'progress', done, total, message: `failing: ${error}`, tables: [] });
  try {
    retryBusy(() =>
      cancelled
        ? jobs.setState(data.jobId, 'cancelled', now(), { message: 'cancelled; committed batches kept' })
        : jobs.setState(data.jobId, 'failed', now(), { message: 'failed', error: error! }),
    );
  } catch {
    post({ type: 'failed', error: error ?? 'cancelled' });
  }
}
