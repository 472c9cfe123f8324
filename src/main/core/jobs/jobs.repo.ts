import { Job } from '../../../shared/contract/jobs.contract';
import { prepareCached, readHandle, type Db, type ReadDb } from '../db/sqlite';
import { withoutKnownKeys as scrub } from '../lib/secrets/known-keys';

type JobRow = Omit<Job, 'result' | 'input'> & {
  result: string | null;
  input: string;
  cancel_requested: number;
  owner: string | null;
};

const COLS = 'id, name, state, done, total, message, error, input, result, created_at, updated_at';
const toJob = (r: JobRow): Job =>
  Job.parse({ ...r, input: JSON.parse(r.input), result: r.result === null ? null : JSON.parse(r.result) });

/** Reading jobs: handlers and the job runner. */
export function jobsRepo(db: ReadDb) {
  return {
    get(id: string): Job | undefined {
      const r = prepareCached(db, `SELECT ${COLS} FROM jobs WHERE id = ?`).get(id) as JobRow | undefined;
      return r ? toJob(r) : undefined;
    },
    input(id: string): unknown {
      const r = prepareCached(db, 'SELECT input FROM jobs WHERE id = ?').get(id) as { input: string } | undefined;
      return r ? JSON.parse(r.input) : undefined;
    },
    list(limit: number): Job[] {
      const sql = `SELECT ${COLS} FROM jobs ORDER BY created_at DESC, rowid DESC LIMIT ?`;
      return (prepareCached(db, sql).all(limit) as JobRow[]).map(toJob);
    },
    count(): number {
      return (prepareCached(db, 'SELECT count(*) AS n FROM jobs').get() as { n: number }).n;
    },
    cancelRequested(id: string): boolean {
      const r = prepareCached(db, 'SELECT cancel_requested AS c FROM jobs WHERE id = ?').get(id) as
        | { c: number }
        | undefined;
      return r?.c === 1;
    },
  };
}

/**
 * A job's life cycle, written by the job runner and the worker on the raw connection: each
 * statement is its own short transaction (or runs inside a batch's), outside the dispatcher.
 */
export function jobsLedger(db: Db) {
  /**
   * A run or import (the `runs` row keyed on this job) ends with its job: every way a job ends
   * other than done — cancelled, failed in its body, a worker that crashed, a process that died —
   * passes here, where the job's body cannot write any more. A job that runs again (resume) makes
   * it running again; its body writes 'done' itself, and a finished run is never rewritten.
   */
  const mirrorOnRun = (jobId: string, state: Job['state'], now: string, error: string | null) => {
    if (state === 'failed' || state === 'cancelled' || state === 'interrupted')
      prepareCached(
        db,
        "UPDATE runs SET state = ?, finished_at = ?, error = ? WHERE job_id = ? AND state IN ('pending', 'running')",
      ).run(state, now, error, jobId);
    else if (state === 'running')
      prepareCached(
        db,
        "UPDATE runs SET state = 'running', finished_at = NULL, error = NULL WHERE job_id = ? " +
          "AND state IN ('failed', 'cancelled', 'interrupted')",
      ).run(jobId);
  };
  return {
    ...jobsRepo(readHandle(db)),
    create(j: { id: string; name: string; input: unknown; total: number; owner: string; now: string }): void {
      prepareCached(
        db,
        'INSERT INTO jobs (id, name, input, state, done, total, message, owner, created_at, updated_at) ' +
          "VALUES (?, ?, ?, 'queued', 0, ?, 'queued', ?, ?, ?)",
      ).run(j.id, j.name, JSON.stringify(j.input), j.total, j.owner, j.now, j.now);
    },
    setState(
      id: string,
      state: Job['state'],
      now: string,
      extra: { message?: string; error?: string | null; owner?: string | null } = {},
    ): void {
      // One transaction: the job and its run never disagree, even when a BUSY retry repeats it.
      // A job's error and message may quote a model's answer: configured endpoint keys never reach the row.
      const error = extra.error == null ? null : scrub(extra.error);
      const message = extra.message === undefined ? null : scrub(extra.message);
      db.transaction(() => {
        prepareCached(
          db,
          'UPDATE jobs SET state = ?, message = coalesce(?, message), error = ?, owner = coalesce(?, owner), ' +
            "cancel_requested = CASE WHEN ? IN ('queued', 'running') THEN cancel_requested ELSE 0 END, " +
            'updated_at = ? WHERE id = ?',
        ).run(state, message, error, extra.owner ?? null, state, now, id);
        mirrorOnRun(id, state, now, error);
      }).immediate();
    },
    /** The job is done: its result (the contract's `result` of its procedure) is kept with it. */
    finish(id: string, result: unknown, now: string): void {
      prepareCached(
        db,
        "UPDATE jobs SET state = 'done', message = 'done', error = NULL, result = ?, cancel_requested = 0, " +
          'updated_at = ? WHERE id = ?',
      ).run(scrub(JSON.stringify(result ?? null)), now, id);
    },
    requestCancel(id: string, now: string): void {
      prepareCached(db, 'UPDATE jobs SET cancel_requested = 1, updated_at = ? WHERE id = ?').run(now, id);
    },
    /** Advances the resume cursor; call inside the batch's transaction so cursor and data commit together. */
    advance(id: string, done: number, message: string, now: string): void {
      prepareCached(db, 'UPDATE jobs SET done = ?, message = ?, updated_at = ? WHERE id = ?').run(
        done,
        scrub(message),
        now,
        id,
      );
    },
    /** Jobs left running by a process that is gone: mark them resumable. */
    orphans(isAlive: (owner: string | null) => boolean, now: string): string[] {
      const rows = prepareCached(db, "SELECT id, owner FROM jobs WHERE state IN ('queued', 'running')").all() as {
        id: string;
        owner: string | null;
      }[];
      const dead = rows.filter((r) => !isAlive(r.owner)).map((r) => r.id);
      for (const id of dead)
        this.setState(id, 'interrupted', now, {
          message: 'interrupted: the process running it ended; resume to continue',
        });
      return dead;
    },
  };
}
