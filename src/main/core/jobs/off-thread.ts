import { Worker } from 'node:worker_threads';
import { AppErrorCode } from '../../../shared/contract/define';
import { AppError } from '../lib/errors';
import type { QueryReply, QueryRequest } from './query-helper';

export type OffThreadOptions = {
  workspacePath: string;
  entry: string;
  execArgv: string[];
  nativeBinding?: string;
};

type Pending = { worker: Worker; key: string | undefined; settle(r: QueryReply | Error): void };

/**
 * Long queries (the Export page's preview and exact count: seconds to minutes on a large workspace) run in query
 * workers, threads on the job workers' entry with their own read-only connection, so the core's thread keeps
 * answering every other call (issue 21). A request with a key supersedes the running one with the same key (the
 * Export page sends a new preview when its filters change): that one's worker is terminated at once — the query
 * is synchronous, so stopping its thread is the only way to stop it — and its caller gets CONFLICT. One idle
 * worker is kept for the next request (a worker's start evaluates the whole job bundle).
 */
export class OffThreadQueries {
  private nextId = 1;
  private idle: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private closed = false;

  constructor(private readonly o: OffThreadOptions) {}

  run(name: string, input: unknown, key?: string): Promise<unknown> {
    if (this.closed) return Promise.reject(new AppError('WORKSPACE_ERROR', 'the workspace is closing'));
    if (key !== undefined)
      for (const [id, p] of this.pending)
        if (p.key === key) this.stop(id, new AppError('CONFLICT', `${name} superseded by a newer request (${key})`));
    const worker = this.idle ?? this.start();
    this.idle = null;
    // Busy, it keeps the process alive (a CLI call waits for its answer); idle, it does not.
    worker.ref();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        worker,
        key,
        settle: (r) => {
          this.pending.delete(id);
          if (r instanceof Error) return reject(r);
          this.release(worker);
          if (r.ok) resolve(r.data);
          else reject(replyError(r.error));
        },
      });
      worker.postMessage({ id, name, input } satisfies QueryRequest);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const id of [...this.pending.keys()]) this.stop(id, new AppError('WORKSPACE_ERROR', 'the workspace closed'));
    const idle = this.idle;
    this.idle = null;
    await idle?.terminate();
  }

  private start(): Worker {
    const worker = new Worker(this.o.entry, {
      execArgv: this.o.execArgv,
      workerData: {
        helper: 'export.queries',
        data: null,
        workspacePath: this.o.workspacePath,
        ...(this.o.nativeBinding ? { nativeBinding: this.o.nativeBinding } : {}),
      },
    });
    worker.on('message', (r: QueryReply) => this.pending.get(r.id)?.settle(r));
    const lost = (why: string) => {
      if (this.idle === worker) this.idle = null;
      for (const p of [...this.pending.values()])
        if (p.worker === worker) p.settle(new AppError('INTERNAL', `the query worker stopped: ${why}`));
    };
    worker.on('error', (e) => lost(e.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    return worker;
  }

  /** Ends request `id`: its worker is terminated (never reused), its caller told why. */
  private stop(id: number, why: AppError): void {
    const p = this.pending.get(id);
    if (!p) return;
    p.settle(why);
    void p.worker.terminate();
  }

  /** A worker whose request ended: kept idle for the next one, or ended when one is kept already. */
  private release(worker: Worker): void {
    if (!this.closed && this.idle === null) {
      this.idle = worker;
      worker.unref();
    } else void worker.terminate();
  }
}

/** The worker's error as the dispatcher knows it: an AppError by code, else an error carrying SQLite's code. */
function replyError(e: { code: string; message: string }): Error {
  const code = AppErrorCode.safeParse(e.code);
  if (code.success) return new AppError(code.data, e.message);
  return Object.assign(new Error(e.message), { code: e.code });
}
