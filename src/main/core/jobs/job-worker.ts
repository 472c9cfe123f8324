import { parentPort, Worker, workerData } from 'node:worker_threads';
import { openDb, readHandle, writeHandle } from '../db/sqlite';
import { endpointsRepo } from '../endpoints/endpoints.repo';
import { memorySecrets, registerConfiguredKeys } from '../endpoints/key-store';
import type { CommitHook } from '../db/commit-hook';
import { bumpTableVersion } from '../events/change-watcher';
import { jobsLedger } from './jobs.repo';
import { JobCancelled, type HelperEnv, type HelperName, type JobContext, type JobHelper } from './job-definition';
import type { JobName } from './job-types';

/**
 * What a job worker runs, handed in by its entry (src/main/job-worker.ts) so this module imports no job
 * body: the bodies and helper bodies by name (rpc/job-registry.ts) and the hooks every commit runs.
 */
export type WorkerRegistry = {
  definitions: Record<JobName, { run(ctx: JobContext, input: never): unknown }>;
  helpers: Record<HelperName, JobHelper>;
  commitHooks: readonly CommitHook[];
};

/** Worker thread data: one job per worker, with its own connection to the workspace. */
export type WorkerData = {
  workspacePath: string;
  jobId: string;
  nativeBinding?: string;
  clockOffsetMs: number;
  /** SQLite's busy timeout per statement (the core's). */
  busyTimeoutMs?: number;
  /** How long one write keeps retrying while another process holds the write lock, before the job fails. */
  busyWaitMs?: number;
  /** Endpoint keys from the OS keychain, decrypted by the main process (kept in memory only). */
  secrets?: Record<string, string>;
  /** This script and its Node flags, so the job can start helper threads on it. */
  entry: string;
  execArgv: string[];
};
/** The same entry started as a job's helper thread (JobContext.startHelper). */
type HelperData = HelperEnv & { helper: HelperName; data: unknown };
export type WorkerMessage =
  | { type: 'progress'; done: number; total: number; message: string; tables: string[] }
  /** The worker could not record its own failure (the workspace stayed busy): the runner records it. */
  | { type: 'failed'; error: string };

/** How often an async job looks for a cancellation request made through the workspace. */
const CANCEL_POLL_MS = 250;

/** The workspace stayed locked by another writer for the whole wait. */
class StillBusy extends Error {}
const isBusy = (err: unknown) => /^SQLITE_BUSY/.test((err as { code?: string }).code ?? '');

/**
 * Runs a write, retrying while another process holds the write lock (each try waits SQLite's busy
 * timeout), up to waitMs; `waiting` is told once, so the job can say why it makes no progress.
 */
function retryBusy<T>(waitMs: number, write: () => T, waiting?: () => void): T {
  const deadline = Date.now() + waitMs;
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

async function runJob(data: WorkerData, registry: WorkerRegistry): Promise<void> {
  // The core's clock may be pinned (tests); keep the same offset from the wall clock.
  const now = () => new Date(Date.now() + data.clockOffsetMs).toISOString();
  const db = openDb(data.workspacePath, {
    check: false,
    ...(data.busyTimeoutMs !== undefined ? { busyTimeoutMs: data.busyTimeoutMs } : {}),
    ...(data.nativeBinding ? { nativeBinding: data.nativeBinding } : {}),
  });
  // Jobs write in bulk: checkpoint every 64 MB of WAL instead of every 4 MB. Each checkpoint syncs
  // the file, and on slow disks those syncs, not the writes, were most of a large import's time
  // (bench/trajectory-import). The WAL is cut back to 64 MB after each checkpoint.
  db.pragma('wal_autocheckpoint = 16384');
  db.pragma('journal_size_limit = 67108864');
  const jobs = jobsLedger(db);
  const busyWaitMs = data.busyWaitMs ?? 60_000;
  const abort = new AbortController();
  let poll: NodeJS.Timeout | undefined;
  let total = 0;
  let done = 0;
  const waiting = () =>
    post({ type: 'progress', done, total, message: 'waiting: the workspace is busy with another write', tables: [] });
  try {
    const job = jobs.get(data.jobId);
    const defs = registry.definitions;
    const def = job && Object.hasOwn(defs, job.name) ? defs[job.name as JobName] : undefined;
    if (!job || !def) throw new Error(`unknown job ${data.jobId}`);
    total = job.total;
    done = job.done;
    const input = jobs.input(job.id) as never;
    retryBusy(
      busyWaitMs,
      () =>
        jobs.setState(job.id, 'running', now(), { message: job.done > 0 ? `resuming after ${job.done}` : 'running' }),
      waiting,
    );
    poll = setInterval(() => {
      try {
        if (jobs.cancelRequested(job.id)) abort.abort(new JobCancelled());
      } catch {
        // A read that met a lock: the next poll asks again.
      }
    }, CANCEL_POLL_MS);
    const keys = { secrets: data.secrets ? memorySecrets(data.secrets) : null, env: process.env };
    // This thread's redaction knows the keys too: what the job writes may quote one (a server's echo).
    registerConfiguredKeys(endpointsRepo(readHandle(db)).list(), keys);
    const ctx: JobContext = {
      jobId: job.id,
      workspacePath: data.workspacePath,
      db: readHandle(db),
      now,
      resumeFrom: job.done,
      keys,
      signal: abort.signal,
      commitBatch(write, doneAfter, message, tables) {
        if (jobs.cancelRequested(job.id)) throw new JobCancelled();
        // IMMEDIATE, like the dispatcher: a batch that reads before it writes must not fail on a concurrent commit.
        const batch = db.transaction(() => {
          write(writeHandle(db));
          jobs.advance(job.id, doneAfter, message, now());
          for (const t of tables) bumpTableVersion(db, t);
          // What every commit runs (a batch of trajectories: their tasks' statistics), in the same commit.
          for (const hook of registry.commitHooks)
            for (const t of hook(writeHandle(db), now())) bumpTableVersion(db, t);
        });
        retryBusy(busyWaitMs, () => batch.immediate(), waiting);
        done = doneAfter;
        post({ type: 'progress', done: doneAfter, total: job.total, message, tables });
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
    retryBusy(busyWaitMs, () => jobs.finish(job.id, result, now()));
  } catch (err) {
    // Our own signal fired: whatever the awaited call wrapped the abort in, this is a cancellation.
    fail(err instanceof JobCancelled || abort.signal.aborted ? null : err);
  } finally {
    clearInterval(poll);
    db.close();
  }

  /** Records how the job ended (null: cancelled); when even that cannot be written, hands it to the runner. */
  function fail(err: unknown): void {
    const error =
      err === null
        ? null
        : err instanceof StillBusy
          ? `the workspace stayed busy with another process's write for ${Math.round(busyWaitMs / 1000)} s ` +
            '(BUSY); the batches committed before are kept — resume the job to continue'
          : (err as Error).message;
    if (error !== null) post({ type: 'progress', done, total, message: `failing: ${error}`, tables: [] });
    try {
      retryBusy(busyWaitMs, () =>
        error === null
          ? jobs.setState(data.jobId, 'cancelled', now(), { message: 'cancelled; committed batches kept' })
          : jobs.setState(data.jobId, 'failed', now(), { message: 'failed', error }),
      );
    } catch {
      post({ type: 'failed', error: error ?? 'cancelled' });
    }
  }
}

/** The worker thread's body: a job, or one of a job's helper threads (started on the same entry). */
export function serveJobWorker(registry: WorkerRegistry): void {
  const data = workerData as WorkerData | HelperData;
  if ('helper' in data) void registry.helpers[data.helper](data.data, data);
  else void runJob(data, registry);
}
