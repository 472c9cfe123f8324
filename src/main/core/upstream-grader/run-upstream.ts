import { UpstreamResult } from '../../../shared/contract/grading.contract';
import { UpstreamBatch, type UpstreamJudge } from './upstream-batch';
import type { UpstreamGrade as Grade } from './upstream-worker';

export { DEFAULT_UPSTREAM_TIMEOUT_MS, graderEnv, type UpstreamJudge } from './upstream-batch';
export const UpstreamGrade = UpstreamResult;
export type UpstreamGrade = Grade;

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

/**
 * One trace graded by the task's own grader.py in its own subprocess: the batch path (upstream-batch.ts) with one
 * process for one trace, so `grade --upstream` and the job share every rule. The child gets no environment of ours
 * (no keys, no proxies) except PATH and the locale, plus the judge key when a real judge is configured; the driver
 * closes the network except to the judge's host. A grader that hangs is killed at the time limit. Never throws for
 * a grader's failure: answers {ok: false} naming the stage, the file and the traceback's last line.
 */
export async function runUpstreamGrader(req: UpstreamRequest): Promise<Grade> {
  const batch = new UpstreamBatch({
    root: req.root,
    workers: 1,
    ...(req.judge !== undefined ? { judge: req.judge } : {}),
    ...(req.python !== undefined ? { python: req.python } : {}),
    ...(req.timeoutMs !== undefined ? { timeoutMs: req.timeoutMs } : {}),
    ...(req.signal ? { signal: req.signal } : {}),
  });
  try {
    return await batch.grade(req.taskDir, req.tracePath);
  } finally {
    await batch.close();
  }
}
