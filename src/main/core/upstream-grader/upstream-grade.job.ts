import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GradeResult } from '../../../shared/contract/entities/checks';
import { prepareCached, type ReadDb, type WriteDb } from '../db/sqlite';
import { judgeEndpoint } from '../grading/judge/judge-settings';
import { KeyMissing, resolveKey } from '../endpoints/key-store';
import { JobCancelled, type JobContext, type JobDefinition } from '../jobs/job-definition';
import type { JobResult } from '../jobs/job-types';
import { writeTrace } from '../traces';
import { loadTrajectory } from '../trajectories/load-trajectory';
import { trajectoriesRepo } from '../trajectories/trajectories.repo';
import { UpstreamBatch, type UpstreamJudge } from './upstream-batch';
import { failure, type UpstreamGrade } from './upstream-worker';
import { upstreamSql } from './upstream-columns';
import { insertUpstreamGrade, setTrajectoryUpstream } from './upstream-store';

declare module '../jobs/job-types' {
  interface JobInputs {
    'upstream.grade': UpstreamGradeJobInput;
  }
}

/** Resolved when the job starts (upstream.grade's handler): a resumed job grades the same list the same way. */
export type UpstreamGradeJobInput = {
  ids: number[];
  root: string;
  python: string;
  timeoutMs: number;
  stubJudge: number | null;
};

const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const MAX_ERRORS = 200;

/**
 * The judge grader.py gets: the stub when asked, else the workspace's judge endpoint with its key (resolved here, in
 * the worker, handed to the child in its environment only), else none. A configured judge without its key stops the
 * job before any trace: grading on without it would give other scores than the user asked for.
 */
function judgeFor(ctx: JobContext, stub: number | null): { judge: UpstreamJudge; label: string } {
  if (stub !== null) return { judge: { stub_score: stub }, label: `stub:${stub}` };
  const e = judgeEndpoint(ctx.db);
  if (!e) return { judge: null, label: 'none' };
  const key = resolveKey(e, ctx.keys);
  if (key instanceof KeyMissing) throw new Error(`the judge (Settings → Judge): ${key.message}`);
  return {
    judge: { model: e.model, base_url: e.base_url, ...(key ? { apiKey: key } : {}) },
    label: `endpoint:${e.name}`,
  };
}

/** Why a trajectory cannot go to grader.py at all, or the trace text and task folder it goes with. */
function traceOf(db: ReadDb, id: number, root: string) {
  const repo = trajectoriesRepo(db);
  const row = repo.row(id);
  const body = repo.body(id);
  if (!row || !body) return null;
  const task = prepareCached(db, 'SELECT origin FROM tasks WHERE task_id = ?').get(row.task_id) as
    | { origin: string }
    | undefined;
  const taskDir = path.join(root, 'tasks', row.task_id);
  const graderPy = path.join(taskDir, 'grader.py');
  const base = { row, taskDir, graderPy };
  if (!task) return { ...base, fail: failure('task', `task ${row.task_id} is not in the workspace`) };
  if (task.origin !== 'imported')
    return {
      ...base,
      fail: failure('task', `task ${row.task_id} was ${task.origin}, not imported from Claw-Eval: it has no grader.py`),
    };
  if (!fs.existsSync(graderPy))
    return { ...base, fail: failure('load grader.py', 'no such file in the Claw-Eval checkout', graderPy) };
  let trace: string;
  if (row.source_format === 'claw-eval-trace' && body.raw) trace = body.raw.toString('utf8');
  else if (row.source_format === 'studio') trace = writeTrace(loadTrajectory(db, 'studio', body));
  else
    return {
      ...base,
      fail: failure('trace', `imported from ${row.source_format}: upstream's grader.py reads Claw-Eval traces only`),
    };
  const grade = body.grade === null ? null : GradeResult.parse(JSON.parse(body.grade));
  return { ...base, trace, grade, fail: null };
}

/** A judge-less grader.py reaching for its judge fails on None: say what to do, beside Python's own words. */
function explain(u: UpstreamGrade, judge: UpstreamJudge): UpstreamGrade {
  if (u.ok || judge !== null || !/'NoneType' object has no attribute 'evaluate/.test(u.error)) return u;
  return { ...u, error: `${u.error} (this grader needs a judge: none is set in Settings → Judge)` };
}

type Graded = { t: ReturnType<typeof traceOf>; upstream: UpstreamGrade | null };

export const upstreamGradeJob: JobDefinition<UpstreamGradeJobInput, JobResult<'upstream.grade'>> = {
  total: (input) => input.ids.length,
  async run(ctx, input) {
    const { judge, label } = judgeFor(ctx, input.stubJudge);
    const total = input.ids.length;
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'coworkenv-upstream-'));
    // Long-lived grader processes for the whole job (issue 19 item 6): one Python start per process, not per trace.
    const batch = new UpstreamBatch({
      root: input.root,
      judge,
      python: input.python,
      timeoutMs: input.timeoutMs,
      signal: ctx.signal,
    });
    /** Trace i handed to the batch: its own trace file, removed once graded. */
    const start = async (i: number): Promise<Graded> => {
      const id = input.ids[i]!;
      const t = traceOf(ctx.db, id, input.root);
      if (!t || t.fail) return { t, upstream: t?.fail ?? null };
      const tracePath = path.join(work, `${id}.jsonl`);
      fs.writeFileSync(tracePath, t.trace!);
      try {
        return { t, upstream: explain(await batch.grade(t.taskDir, tracePath), judge) };
      } finally {
        fs.rmSync(tracePath, { force: true });
      }
    };
    // As many traces in flight as processes, committed in list order (a resumed job restarts at the first uncommitted).
    const inFlight = new Map<number, Promise<Graded>>();
    let next = ctx.resumeFrom;
    const fill = () => {
      while (next < total && inFlight.size < batch.size) {
        const p = start(next);
        p.catch(() => undefined); // a trace that cannot be read fails the job when its turn comes, not before
        inFlight.set(next++, p);
      }
    };
    try {
      for (let i = ctx.resumeFrom; i < total; i++) {
        if (ctx.signal.aborted) throw new JobCancelled();
        fill();
        const { t, upstream } = await inFlight.get(i)!;
        inFlight.delete(i);
        if (ctx.signal.aborted) throw new JobCancelled();
        const id = input.ids[i]!;
        ctx.commitBatch(
          (db) => store(db, ctx.now(), id, t, upstream, label),
          i + 1,
          `${i + 1} of ${total} traces graded by grader.py`,
          ['upstream_grades', 'trajectories'],
        );
      }
    } finally {
      await batch.close();
      await Promise.allSettled(inFlight.values());
      fs.rmSync(work, { recursive: true, force: true });
    }
    return { ...summary(ctx.db, input.ids), judge: label };
  },
};

/** One trace's upstream grade kept beside the app's (or its failure on the trajectory). */
function store(
  db: WriteDb,
  at: string,
  id: number,
  t: ReturnType<typeof traceOf>,
  upstream: UpstreamGrade | null,
  label: string,
) {
  if (!t || !upstream) return; // deleted meanwhile: nothing to keep
  if (t.fail) return setTrajectoryUpstream(db, id, null, upstream);
  let graderSha256: string | null = null;
  try {
    graderSha256 = sha256(fs.readFileSync(t.graderPy));
  } catch {
    // gone since: the stored error (from the driver) names the file
  }
  const g = t.grade;
  const gradeId = insertUpstreamGrade(db, {
    taskId: t.row.task_id,
    traceSha256: sha256(t.trace!),
    judge: label,
    graderSha256,
    upstream,
    // Ungraded by the app (no grade): stored as incomplete, and agreement stays unknown (upstream-columns).
    app: { score: g?.score ?? 0, passed: g?.passed ?? false, incomplete: g ? g.incomplete : true },
    at,
    trajectoryId: id,
  });
  setTrajectoryUpstream(db, id, gradeId, upstream);
}

/** Counted from the workspace (a resumed job did not see the batches committed before). */
function summary(db: ReadDb, ids: number[]) {
  const u = upstreamSql('t');
  const json = JSON.stringify(ids);
  const c = db
    .prepare(
      `SELECT coalesce(sum(t.upstream_passed IS NOT NULL), 0) AS graded, coalesce(sum(${u.agrees} = 1), 0) AS agreed,
         coalesce(sum(${u.agrees} = 0), 0) AS disagreed, coalesce(sum(${u.appPending}), 0) AS appPending,
         coalesce(sum(${u.failed}), 0) AS failed
       FROM trajectories t WHERE t.id IN (SELECT value FROM json_each(?))`,
    )
    .get(json) as { graded: number; agreed: number; disagreed: number; appPending: number; failed: number };
  const errors = db
    .prepare(
      `SELECT t.id, t.task_id AS taskId, t.upstream_error AS error FROM trajectories t
       WHERE t.id IN (SELECT value FROM json_each(?)) AND t.upstream_error IS NOT NULL ORDER BY t.id LIMIT ?`,
    )
    .all(json, MAX_ERRORS) as { id: number; taskId: string; error: string }[];
  return { ...c, errors };
}
