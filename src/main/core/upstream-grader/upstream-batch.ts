import os from 'node:os';
import { failure, type UpstreamGrade, UpstreamWorker } from './upstream-worker';

/** The judge upstream's grader gets: none, a constant stub (comparisons), or the user's endpoint (key via env). */
export type UpstreamJudge = null | { stub_score: number } | { model: string; base_url: string; apiKey?: string };

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 60_000;

/** Two processes keep one grading while the other reads its next trace; more would crowd a laptop's cores. */
export const defaultUpstreamWorkers = () => Math.max(1, Math.min(2, os.availableParallelism()));

export type UpstreamBatchOptions = {
  /** The user's Claw-Eval checkout (holds src/claw_eval and tasks/). */
  root: string;
  judge?: UpstreamJudge;
  python?: string;
  /** Per trace: a grader that takes longer is killed (its process with it) and the trace is a timeout. */
  timeoutMs?: number;
  /** Aborted (a cancelled job): every process is killed at once, every open request answers 'cancelled'. */
  signal?: AbortSignal;
  /** Python processes grading side by side (default: defaultUpstreamWorkers()). */
  workers?: number;
};

/**
 * The environment grader.py runs in (and Settings → Upstream grader → Check tests in): none of ours (no keys, no
 * proxies) but PATH and the locale, plus the judge key when a real judge is configured.
 */
export function graderEnv(apiKey?: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    PYTHONIOENCODING: 'utf-8',
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONNOUSERSITE: '1',
    ...(apiKey ? { COWORKENV_JUDGE_API_KEY: apiKey } : {}),
  };
}

type Queued = { taskDir: string; tracePath: string; resolve: (g: UpstreamGrade) => void };

/**
 * Traces graded by long-lived driver processes (upstream-worker.ts): interpreter start, claw_eval's import and each
 * grader.py's load are paid once per process instead of once per trace. Requests queue and go to the first idle
 * process; answers come per request, whatever the order they finish in. Close it when done (ends the processes).
 */
export class UpstreamBatch {
  readonly size: number;
  private readonly workers: UpstreamWorker[];
  private readonly queue: Queued[] = [];
  private readonly timeoutMs: number;
  private readonly onAbort = () => this.cancel();

  constructor(private readonly o: UpstreamBatchOptions) {
    this.size = Math.max(1, o.workers ?? defaultUpstreamWorkers());
    this.timeoutMs = o.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
    const { apiKey, ...judge } = (o.judge ?? {}) as { apiKey?: string } & Record<string, unknown>;
    const config = JSON.stringify({ root: o.root, judge: o.judge ? judge : null });
    const w = { python: o.python ?? 'python3', root: o.root, env: graderEnv(apiKey), config };
    this.workers = Array.from({ length: this.size }, () => new UpstreamWorker(w));
    o.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The ids of the processes running now. */
  get pids(): number[] {
    return this.workers.flatMap((w) => (w.pid === null ? [] : [w.pid]));
  }

  grade(taskDir: string, tracePath: string): Promise<UpstreamGrade> {
    if (this.o.signal?.aborted) return Promise.resolve(cancelled());
    return new Promise((resolve) => {
      this.queue.push({ taskDir, tracePath, resolve });
      this.dispatch();
    });
  }

  /** Ends every process (after its current trace); resolves when all have exited. */
  async close(): Promise<void> {
    this.o.signal?.removeEventListener('abort', this.onAbort);
    for (const q of this.queue.splice(0)) q.resolve(cancelled());
    await Promise.all(this.workers.map((w) => w.close()));
  }

  private cancel(): void {
    for (const q of this.queue.splice(0)) q.resolve(cancelled());
    for (const w of this.workers) w.cancel();
  }

  private dispatch(): void {
    for (const w of this.workers) {
      if (w.busy) continue;
      const q = this.queue.shift();
      if (!q) return;
      w.grade(q.taskDir, q.tracePath, this.timeoutMs).then((g) => {
        q.resolve(g);
        this.dispatch();
      });
    }
  }
}

const cancelled = () => failure('cancelled', 'the grading was cancelled; grader.py was stopped');
