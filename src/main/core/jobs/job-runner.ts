import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Job } from '../../../shared/contract/jobs.contract';
import type { Db } from '../db/sqlite';
import type { CoreEvents } from '../events/core-events';
import type { KeyAccess } from '../endpoints/key-store';
import type { Logger } from '../logger';
import { AppError, notFound } from '../lib/errors';
import type { JobInput, JobName } from './job-types';
import { ownerProcess, ownerProcessAlive } from './process-start';
import { jobsLedger } from './jobs.repo';
import type { WorkerData, WorkerMessage } from './job-worker';
import { OffThreadQueries } from './off-thread';
import type { OffThreadName } from './job-types';

/** This process as job owners name it: pid and start time. */
const OWNER_PROCESS = ownerProcess();

/** Core instances alive in this process; a job owned by one of them is not an orphan. */
const liveOwners = new Set<string>();

/** What the runner needs of each job's body: its size, to create the row before a worker starts. */
export type JobSizes = { [N in JobName]: { total(input: JobInput<N>): number } };

export type JobRunnerOptions = {
  db: Db;
  /** The job bodies (rpc/job-registry.ts), handed down by the composition root. */
  definitions: JobSizes;
  workspacePath: string;
  events: CoreEvents;
  logger: Logger;
  now(): string;
  clockOffsetMs: number;
  workerEntry?: string;
  workerExecArgv?: string[];
  nativeBinding?: string;
  busyTimeoutMs?: number;
  /** How long a worker's write keeps waiting for another process's lock before the job fails (default 60 s). */
  busyWaitMs?: number;
  /** Endpoint keys for jobs that call models (workers cannot reach the OS keychain; handed over in memory). */
  keys?: KeyAccess;
};

/** The bundler puts this module in out/main or out/main/chunks; the worker entry is out/main/job-worker.js. */
function defaultWorkerEntry(): string {
  const near = [path.join(__dirname, 'job-worker.js'), path.join(__dirname, '..', 'job-worker.js')];
  return near.find((p) => fs.existsSync(p)) ?? near[0]!;
}

const FINAL: Job['state'][] = ['done', 'failed', 'cancelled', 'interrupted'];

/**
 * Starts jobs in worker threads and relays their progress as events. The worker commits its own
 * batches through its own connection; this side only creates the row and watches.
 */
export class JobRunner {
  readonly owner = `${OWNER_PROCESS}:${randomUUID()}`;
  private readonly repo;
  private readonly workers = new Map<string, Worker>();
  private readonly waiters = new Map<string, (() => void)[]>();
  private readonly queries: OffThreadQueries | null;

  constructor(private readonly o: JobRunnerOptions) {
    this.repo = jobsLedger(o.db);
    // Workers open the file themselves: an in-memory workspace runs its queries in the core's thread.
    this.queries =
      o.workspacePath === ':memory:'
        ? null
        : new OffThreadQueries({
            workspacePath: o.workspacePath,
            entry: o.workerEntry ?? defaultWorkerEntry(),
            execArgv: o.workerExecArgv ?? [],
            ...(o.nativeBinding ? { nativeBinding: o.nativeBinding } : {}),
          });
    liveOwners.add(this.owner);
    // A read-only workspace cannot record that a job was interrupted; it keeps showing the stored state.
    if (o.workspacePath !== ':memory:' && !o.db.readonly) {
      const pidAlive = (owner: string | null) => {
        if (!owner) return false;
        if (liveOwners.has(owner)) return true;
        // Our process, but no live core owns it.
        if (Number(owner.split(':')[0]!.split('@')[0]) === process.pid) return false;
        return ownerProcessAlive(owner);
      };
      this.repo.orphans(pidAlive, o.now());
    }
  }

  /** Only job procedures with a body, with the input their body takes (checked by the compiler). */
  start<N extends JobName>(name: N, input: JobInput<N>): string {
    const def = this.o.definitions[name] as { total(i: JobInput<N>): number };
    if (this.o.workspacePath === ':memory:')
      throw new AppError('WORKSPACE_ERROR', 'jobs need a workspace file (worker threads open their own connection)');
    const id = randomUUID();
    this.repo.create({ id, name, input, total: def.total(input), owner: this.owner, now: this.o.now() });
    this.spawn(id);
    return id;
  }

  resume(id: string): Job {
    const job = this.repo.get(id);
    if (!job) throw notFound(`job ${id}`);
    if (!['interrupted', 'failed', 'cancelled'].includes(job.state))
      throw new AppError('CONFLICT', `job ${id} is ${job.state}; only interrupted, failed or cancelled jobs resume`);
    this.repo.setState(id, 'queued', this.o.now(), {
      message: `queued to resume after ${job.done}`,
      owner: this.owner,
    });
    this.spawn(id);
    return this.repo.get(id)!;
  }

  cancel(id: string): Job {
    const job = this.repo.get(id);
    if (!job) throw notFound(`job ${id}`);
    if (FINAL.includes(job.state)) return job;
    this.repo.requestCancel(id, this.o.now());
    return this.repo.get(id)!;
  }

  /** Resolves when the job reaches a final state or the timeout passes. */
  async wait(id: string, timeoutMs: number): Promise<Job> {
    const job = this.repo.get(id);
    if (!job) throw notFound(`job ${id}`);
    if (FINAL.includes(job.state) || !this.workers.has(id)) return job;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, timeoutMs);
      this.waiters.set(id, [...(this.waiters.get(id) ?? []), () => (clearTimeout(t), resolve())]);
    });
    return this.repo.get(id)!;
  }

  /**
   * Runs a long query in a query worker (off-thread.ts) and answers its result; `key`: a newer request with the
   * same key cancels this one (CONFLICT). null when the workspace is in memory: the caller runs it itself.
   */
  offThread(name: OffThreadName, input: unknown, key?: string): Promise<unknown> | null {
    return this.queries?.run(name, input, key) ?? null;
  }

  async close(): Promise<void> {
    liveOwners.delete(this.owner);
    await this.queries?.close();
    for (const id of this.workers.keys()) this.repo.requestCancel(id, this.o.now());
    await Promise.all([...this.workers.values()].map((w) => new Promise((r) => w.once('exit', r))));
  }

  private spawn(id: string): void {
    const entry = this.o.workerEntry ?? defaultWorkerEntry();
    const execArgv = this.o.workerExecArgv ?? [];
    const data: WorkerData = {
      workspacePath: this.o.workspacePath,
      jobId: id,
      clockOffsetMs: this.o.clockOffsetMs,
      entry,
      execArgv,
      ...(this.o.nativeBinding ? { nativeBinding: this.o.nativeBinding } : {}),
      ...(this.o.busyTimeoutMs !== undefined ? { busyTimeoutMs: this.o.busyTimeoutMs } : {}),
      ...(this.o.busyWaitMs !== undefined ? { busyWaitMs: this.o.busyWaitMs } : {}),
      // Decrypted keychain keys go to the worker in memory only — never into the jobs table.
      ...(this.o.keys?.secrets && !this.o.keys.secrets.unavailableReason()
        ? { secrets: this.o.keys.secrets.exportAll() }
        : {}),
    };
    const worker = new Worker(entry, {
      workerData: data,
      execArgv,
      ...(this.o.keys && this.o.keys.env !== process.env ? { env: { ...process.env, ...this.o.keys.env } } : {}),
    });
    this.workers.set(id, worker);
    const job = this.repo.get(id)!;
    this.emitProgress(job);
    let reported: string | undefined;
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'failed') {
        reported = m.error;
        return;
      }
      for (const table of m.tables) this.o.events.emit('table.changed', { table });
      this.o.events.emit('job.progress', {
        jobId: id,
        name: job.name,
        state: 'running',
        done: m.done,
        total: m.total,
        message: m.message,
      });
    });
    let crash: string | undefined;
    worker.on('error', (err) => {
      crash = err.message;
      this.o.logger.error('job worker crashed', { jobId: id, error: err.message });
    });
    worker.on('exit', () => {
      // Resumed the moment its row said cancelled or failed: the job already runs in a new worker,
      // and this exit says nothing about that run (it used to mark the new run failed).
      if (this.workers.get(id) !== worker) return;
      this.workers.delete(id);
      if (!this.o.db.open) return;
      let final = this.repo.get(id)!;
      if (!FINAL.includes(final.state)) {
        const error = reported ?? (crash ? `the worker crashed: ${crash}` : 'the worker stopped before finishing');
        try {
          this.repo.setState(id, 'failed', this.o.now(), { message: 'failed', error });
          final = this.repo.get(id)!;
        } catch (err) {
          // Still busy: the row stays as it is and is marked interrupted on the next open.
          this.o.logger.error('could not record a job failure', { jobId: id, error: (err as Error).message });
          final = { ...final, state: 'failed', message: 'failed', error };
        }
      }
      this.emitProgress(final);
      this.o.events.emit('table.changed', { table: 'jobs' });
      for (const w of this.waiters.get(id) ?? []) w();
      this.waiters.delete(id);
    });
  }

  private emitProgress(j: Job): void {
    this.o.events.emit('job.progress', {
      jobId: j.id,
      name: j.name,
      state: j.state,
      done: j.done,
      total: j.total,
      message: j.message,
    });
  }
}
