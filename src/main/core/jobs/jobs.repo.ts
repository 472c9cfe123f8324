import { Job } from '../../../shared/contract/jobs.contract';
import { prepareCached, type Db } from '../db/sqlite';

type JobRow = Job & { input: string; cancel_requested: number; owner: string | null };

const COLS = 'id, name, state, done, total, message, error, created_at, updated_at';

export function jobsRepo(db: Db) {
  return {
    create(j: { id: string; name: string; input: unknown; total: number; owner: string; now: string }): void {
      db.prepare(
        `INSERT INTO jobs (id, name, input, state, done, total, message, owner, created_at, updated_at) VALUES (?, ?, ?, 'queued', 0, ?, 'queued', ?, ?, ?)`,
      ).run(j.id, j.name, JSON.stringify(j.input), j.total, j.owner, j.now, j.now);
    },
    get(id: string): Job | undefined {
      const r = db.prepare(`SELECT ${COLS} FROM jobs WHERE id = ?`).get(id) as JobRow | undefined;
      return r ? Job.parse(r) : undefined;
    },
    input(id: string): unknown {
      const r = db.prepare('SELECT input FROM jobs WHERE id = ?').get(id) as { input: string } | undefined;
      return r ? JSON.parse(r.input) : undefined;
    },
    list(limit: number): Job[] {
      return (
        db.prepare(`SELECT ${COLS} FROM jobs ORDER BY created_at DESC, rowid DESC LIMIT ?`).all(limit) as JobRow[]
      ).map((r) => Job.parse(r));
    },
    count(): number {
      return (prepareCached(db, 'SELECT count(*) AS n FROM jobs').get() as { n: number }).n;
    },
    setState(
      id: string,
      state: Job['state'],
      now: string,
      extra: { message?: string; error?: string | null; owner?: string | null } = {},
    ): void {
      db.prepare(
        "UPDATE jobs SET state = ?, message = coalesce(?, message), error = ?, owner = coalesce(?, owner), cancel_requested = CASE WHEN ? IN ('queued', 'running') THEN cancel_requested ELSE 0 END, updated_at = ? WHERE id = ?",
      ).run(state, extra.message ?? null, extra.error ?? null, extra.owner ?? null, state, now, id);
    },
    requestCancel(id: string, now: string): void {
      db.prepare('UPDATE jobs SET cancel_requested = 1, updated_at = ? WHERE id = ?').run(now, id);
    },
    cancelRequested(id: string): boolean {
      return (
        (db.prepare('SELECT cancel_requested AS c FROM jobs WHERE id = ?').get(id) as { c: number } | undefined)?.c ===
        1
      );
    },
    /** Advances the resume cursor; call inside the batch's transaction so cursor and data commit together. */
    advance(id: string, done: number, message: string, now: string): void {
      db.prepare('UPDATE jobs SET done = ?, message = ?, updated_at = ? WHERE id = ?').run(done, message, now, id);
    },
    /** Jobs left running by a process that is gone: mark them resumable. */
    orphans(isAlive: (owner: string | null) => boolean, now: string): string[] {
      const rows = db.prepare("SELECT id, owner FROM jobs WHERE state IN ('queued', 'running')").all() as {
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
export type JobsRepo = ReturnType<typeof jobsRepo>;
