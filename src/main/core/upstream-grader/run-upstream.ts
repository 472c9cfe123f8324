import { spawn } from 'node:child_process';
import type { z } from 'zod';
import { UpstreamResult } from '../../../shared/contract/grading.contract';
import { DRIVER_PY } from './driver-py';

/** The judge upstream's grader gets: none, a constant stub (comparisons), or the user's endpoint (key via env). */
export type UpstreamJudge = null | { stub_score: number } | { model: string; base_url: string; apiKey?: string };

export const UpstreamGrade = UpstreamResult;
export type UpstreamGrade = z.infer<typeof UpstreamResult>;

export type UpstreamRequest = {
  /** The user's Claw-Eval checkout (holds src/claw_eval and tasks/). */
  root: string;
  /** The task folder whose task.yaml and grader.py grade the trace. */
  taskDir: string;
  tracePath: string;
  judge?: UpstreamJudge;
  python?: string;
  timeoutMs?: number;
  /** Aborted (a cancelled job): the child is killed and the answer is {ok: false, stage: 'cancelled'}. */
  signal?: AbortSignal;
};

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 60_000;

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

/**
 * One trace graded by the task's own grader.py in a subprocess. The child gets no environment of ours (no keys,
 * no proxies) except PATH and the locale, plus the judge key when a real judge is configured; the driver closes
 * the network except to the judge's host. A grader that hangs is killed at the time limit. Never throws for a
 * grader's failure: answers {ok: false} naming the stage, the file and the traceback's last line.
 */
export function runUpstreamGrader(req: UpstreamRequest): Promise<UpstreamGrade> {
  const timeoutMs = req.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const { apiKey, ...judge } = (req.judge ?? {}) as { apiKey?: string } & Record<string, unknown>;
  const env = graderEnv(apiKey);
  const input = JSON.stringify({
    root: req.root,
    task_dir: req.taskDir,
    trace: req.tracePath,
    judge: req.judge ? judge : null,
  });
  return new Promise((resolve) => {
    const fail = (stage: string, error: string, file: string | null = null) =>
      resolve({ ok: false, stage, file, error });
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(req.python ?? 'python3', ['-c', DRIVER_PY], { env, cwd: req.root, stdio: 'pipe' });
    } catch (err) {
      return fail('start python', (err as Error).message);
    }
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let cancelled = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const onAbort = () => {
      cancelled = true;
      child.kill('SIGKILL');
    };
    if (req.signal?.aborted) onAbort();
    else req.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-20_000)));
    child.on('error', (err) => {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      fail('start python', `${req.python ?? 'python3'}: ${err.message}`);
    });
    child.on('close', () => {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      if (cancelled) return fail('cancelled', 'the grading was cancelled; grader.py was stopped');
      if (timedOut) return fail('timeout', `grader.py gave no answer within ${timeoutMs} ms; killed`);
      const last = stdout.trim().split('\n').at(-1) ?? '';
      let parsed: unknown;
      try {
        parsed = JSON.parse(last);
      } catch {
        const why = stderr.trim().split('\n').at(-1) || 'no output';
        return fail('protocol', `the driver printed no result line (${why})`);
      }
      const r = UpstreamGrade.safeParse(parsed);
      if (!r.success) return fail('protocol', `unexpected result line: ${last.slice(0, 200)}`);
      resolve(r.data);
    });
    child.stdin!.on('error', () => undefined); // a child that dies before reading stdin is reported on close
    child.stdin!.end(input);
  });
}
