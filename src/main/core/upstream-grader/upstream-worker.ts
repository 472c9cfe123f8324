import { type ChildProcess, spawn } from 'node:child_process';
import { UpstreamResult } from '../../../shared/contract/grading.contract';
import type { z } from 'zod';
import { DRIVER_PY } from './driver-py';

export type UpstreamGrade = z.infer<typeof UpstreamResult>;
export type Failure = Extract<UpstreamGrade, { ok: false }>;

export const failure = (stage: string, error: string, file: string | null = null): Failure => ({
  ok: false,
  stage,
  file,
  error,
});

export type WorkerOptions = {
  python: string;
  root: string;
  env: Record<string, string>;
  /** The driver's first stdin line: the checkout and the judge (never its key). */
  config: string;
};

type Pending = {
  id: number;
  resolve: (g: UpstreamGrade) => void;
  timer: NodeJS.Timeout;
  timeoutMs: number;
  /** Why this process was killed while the request was in it: answers the request when the process ends. */
  killed: Failure | null;
};

const CANCELLED = () => failure('cancelled', 'the grading was cancelled; grader.py was stopped');

/**
 * One python3 running the driver (driver-py.ts), one request at a time. A request that outlives its time limit
 * kills the process (a grader stuck in C code or a loop cannot be interrupted otherwise) and is answered as a
 * timeout; the process that died with a request in it, whatever the reason, answers it with why, and the next
 * request starts a fresh process. Never rejects: every answer is a grade or a failure naming stage and file.
 */
export class UpstreamWorker {
  private child: ChildProcess | null = null;
  private pending: Pending | null = null;
  private out = '';
  private errTail = '';
  private nextId = 1;
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly o: WorkerOptions) {}

  /** The running process's id (null between processes): diagnostics, and tests that check a kill. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  get busy(): boolean {
    return this.pending !== null;
  }

  grade(taskDir: string, tracePath: string, timeoutMs: number): Promise<UpstreamGrade> {
    if (this.pending) throw new Error('UpstreamWorker.grade: one request at a time');
    const child = this.child ?? this.start();
    return new Promise((resolve) => {
      const id = this.nextId++;
      const timer = setTimeout(() => {
        if (this.pending?.id !== id) return;
        const why = `grader.py gave no answer within ${timeoutMs} ms; killed`;
        this.kill(failure('timeout', why, `${taskDir}/grader.py`));
      }, timeoutMs);
      this.pending = { id, resolve, timer, timeoutMs, killed: null };
      child.stdin!.write(`${JSON.stringify({ id, task_dir: taskDir, trace: tracePath })}\n`);
    });
  }

  /** Cancel: the process dies at once; a request in it is answered as cancelled. */
  cancel(): void {
    this.kill(CANCELLED());
  }

  /** End of input: the driver finishes and exits. Resolves when it has. */
  close(): Promise<void> {
    this.child?.stdin?.end();
    return this.exited;
  }

  private kill(why: Failure): void {
    if (this.pending) this.pending.killed ??= why;
    this.child?.kill('SIGKILL');
  }

  private start(): ChildProcess {
    this.out = '';
    this.errTail = '';
    const child = spawn(this.o.python, ['-c', DRIVER_PY], { env: this.o.env, cwd: this.o.root, stdio: 'pipe' });
    this.child = child;
    let startError: Error | null = null;
    this.exited = new Promise((done) => {
      child.on('error', (err) => {
        startError = err; // ENOENT and the like: 'close' follows
      });
      child.on('close', (code, signal) => {
        if (this.child === child) this.child = null;
        const why = startError
          ? failure('start python', `${this.o.python}: ${startError.message}`)
          : failure('protocol', `the driver ended without a result line (${this.lastWords(code, signal)})`);
        this.answer(this.pending?.killed ?? why);
        done();
      });
    });
    child.stdout!.setEncoding('utf8').on('data', (d: string) => this.onStdout(d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      this.errTail = (this.errTail + d).slice(-20_000);
    });
    child.stdin!.on('error', () => undefined); // a child that died is reported on 'close'
    child.stdin!.write(`${this.o.config}\n`);
    return child;
  }

  private lastWords(code: number | null, signal: NodeJS.Signals | null): string {
    const last = this.errTail.trim().split('\n').at(-1);
    return `${signal ? `killed by ${signal}` : `exit code ${code}`}${last ? `: ${last}` : ''}`;
  }

  private onStdout(d: string): void {
    this.out += d;
    let nl = this.out.indexOf('\n');
    while (nl >= 0) {
      const line = this.out.slice(0, nl).trim();
      this.out = this.out.slice(nl + 1);
      if (line) this.onLine(line);
      nl = this.out.indexOf('\n');
    }
  }

  private onLine(line: string): void {
    const p = this.pending;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = undefined;
    }
    const { id, ...rest } = (parsed ?? {}) as { id?: unknown } & Record<string, unknown>;
    const r = UpstreamResult.safeParse(rest);
    if (!p || id !== p.id || !r.success) {
      // Only the driver writes here; anything else means its state is unknown: a fresh process for the next trace.
      this.kill(failure('protocol', `unexpected result line: ${line.slice(0, 200)}`));
      return;
    }
    this.answer(r.data);
  }

  private answer(g: UpstreamGrade): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    clearTimeout(p.timer);
    p.resolve(g);
  }
}
