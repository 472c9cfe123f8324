import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/main/core/db/sqlite';
import { jobsLedger } from '../../src/main/core/jobs/jobs.repo';
import type { RunResult } from '../../src/shared/contract/entities/run';
import { ok } from '../helpers/call';
import { nextEvent } from '../helpers/events';
import { generatedTasks } from '../helpers/generated-tasks';
import { runWorkspace, waitJob } from '../helpers/run-workspace';
import { TS_WORKER_CANCEL_BARRIER } from '../helpers/test-core';

/**
 * The run row's own state (runs.state), read from the table — not runs.list, which also looks at
 * the job: a cancelled, failed or interrupted job leaves its run so, and a resume makes it running
 * then done.
 */
describe('a run row follows its job to the end', { timeout: 180_000 }, () => {
  type Workspace = ReturnType<typeof runWorkspace>;
  let t: Workspace;
  // The cancel test's own workspace, on the barrier's worker: a fresh job waits after its first batch until the
  // cancel is asked, so the cancel cannot lose a race with the run's end (and a fresh job never cancelled would wait).
  let c: Workspace;
  beforeAll(() => {
    t = runWorkspace(generatedTasks(10));
    c = runWorkspace(generatedTasks(10), TS_WORKER_CANCEL_BARRIER);
  });
  afterAll(() => Promise.all([t.core.close(), c.core.close()]));

  const row = (jobId: string, w: Workspace = t) => {
    const db = openDb(w.workspacePath);
    try {
      return db.prepare('SELECT id, state, error, finished_at FROM runs WHERE job_id = ?').get(jobId) as {
        id: number;
        state: string;
        error: string | null;
        finished_at: string | null;
      };
    } finally {
      db.close();
    }
  };
  /**
   * Until the job runs and has committed a batch beyond `after` (the run row exists, with trajectories): its progress
   * event, or its row if that already says so (the listener is set first, so no event falls between).
   */
  const started = async (w: Workspace, jobId: string, after = 0): Promise<{ state: string }> => {
    const moved = (j: { state: string; done: number }) =>
      (j.state === 'running' && j.done > after) || !['queued', 'running'].includes(j.state);
    const next = nextEvent(
      w.core.events,
      (e) => e.event === 'job.progress' && e.payload.jobId === jobId && moved(e.payload),
    );
    const j = await ok(w.core, 'jobs.get', { id: jobId });
    return moved(j) ? j : ((await next).payload as { state: string });
  };

  it('cancelled: the run says cancelled; resumed: running, then done with every pair', async () => {
    // 10 tasks × 100 trials at concurrency 1: the resumed run has ~1,000 episodes to go when its first batch is
    // reported, far more than reading its row takes. (1,000 trials took 100 s on a busy machine, near the guard.)
    const { jobId } = await ok(c.core, 'runs.start', { agent: { kind: 'reference' }, trials: 100, concurrency: 1 });
    expect((await started(c, jobId)).state).toBe('running');
    expect(row(jobId, c).state).toBe('running');
    await ok(c.core, 'jobs.cancel', { id: jobId });
    const cancelled = await waitJob(c.core, jobId);
    expect(cancelled.state).toBe('cancelled');
    expect(row(jobId, c)).toMatchObject({ state: 'cancelled', error: null });
    expect(row(jobId, c).finished_at).not.toBeNull();

    await ok(c.core, 'jobs.resume', { id: jobId });
    expect((await started(c, jobId, cancelled.done)).state).toBe('running');
    expect(row(jobId, c)).toMatchObject({ state: 'running', finished_at: null });
    const job = await waitJob(c.core, jobId);
    expect(job.state, job.error ?? '').toBe('done');
    expect((job.result as RunResult).stored).toBe(1_000);
    expect(row(jobId, c).state).toBe('done');
  });

  it('failed or interrupted: the run row takes the state and the error; a finished run keeps its own', async () => {
    const { jobId } = await ok(t.core, 'runs.start', { agent: { kind: 'reference' }, trials: 1 });
    expect((await waitJob(t.core, jobId)).state).toBe('done');
    const runId = row(jobId).id;
    const db = openDb(t.workspacePath);
    try {
      const jobs = jobsLedger(db);
      // A done run is not rewritten by a later state of its job row.
      jobs.setState(jobId, 'failed', '2026-01-01T00:00:00.000Z', { error: 'late' });
      expect(row(jobId).state).toBe('done');
      // As the runner records a worker that crashed, and the orphan sweep a process that died.
      db.prepare("UPDATE runs SET state = 'running', finished_at = NULL WHERE id = ?").run(runId);
      jobs.setState(jobId, 'failed', '2026-01-01T00:00:01.000Z', { error: 'the worker crashed: boom' });
      expect(row(jobId)).toMatchObject({ state: 'failed', error: 'the worker crashed: boom' });
      jobs.setState(jobId, 'running', '2026-01-01T00:00:02.000Z');
      expect(row(jobId)).toMatchObject({ state: 'running', error: null, finished_at: null });
      jobs.setState(jobId, 'interrupted', '2026-01-01T00:00:03.000Z');
      expect(row(jobId)).toMatchObject({ state: 'interrupted', finished_at: '2026-01-01T00:00:03.000Z' });
    } finally {
      db.close();
    }
  });
});
