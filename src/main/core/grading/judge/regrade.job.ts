import type { TaskSpec } from '../../../../shared/contract/entities/task-spec';
import { prepareCached, type ReadDb } from '../../db/sqlite';
import { JobCancelled, type JobDefinition } from '../../jobs/job-definition';
import type { JobResult } from '../../jobs/job-types';
import { withoutKnownKeys } from '../../lib/secrets/known-keys';
import { storedTaskSpec } from '../../tasks/task-spec-of';
import { tasksRepo } from '../../tasks/tasks.repo';
import { ContextCache, loadTrajectory } from '../../trajectories/load-trajectory';
import { gradableRun, regradeTask } from '../../trajectories/stored-grade';
import { trajectoriesRepo } from '../../trajectories/trajectories.repo';
import { runRecordOf } from '../run-record';
import { cachedJudge, isCached, storeVerdicts, withFreshVerdicts } from './judge-cache';
import { judgeClient } from './judge-client';
import { judgePass } from './judge-pass';
import { judgeEndpoint, judgeEndpointName } from './judge-settings';

declare module '../../jobs/job-types' {
  interface JobInputs {
    'grading.regradeJob': RegradeJobInput;
  }
}

/** Resolved when the job starts: the graded trajectories in scope, so a resumed job grades the same list. */
export type RegradeJobInput = { ids: number[]; skipped: number; judge: boolean; batchSize: number };

const MAX_PROBLEMS = 50;

type Counters = { regraded: number; changed: number; pending: number; asked: number; cached: number; failed: number };

const judgedSpec = (spec: TaskSpec) =>
  spec.checks.some((c) => c.kind === 'llm_judge') || spec.prohibited.some((r) => r.kind === 'judge');

/** The batch's rows by task (ids in order); rows deleted since the start are left out. */
function byTask(db: ReadDb, ids: readonly number[]): Map<string, number[]> {
  const rows = prepareCached(
    db,
    'SELECT id, task_id FROM trajectories WHERE graded = 1 AND id IN (SELECT value FROM json_each(?)) ORDER BY id',
  ).all(JSON.stringify(ids)) as { id: number; task_id: string }[];
  const by = new Map<string, number[]>();
  for (const r of rows) by.set(r.task_id, [...(by.get(r.task_id) ?? []), r.id]);
  return by;
}

/** The runs the judge pre-pass reads for one batch (only tasks with judged checks or rules). */
function* gradables(db: ReadDb, specs: Map<string, TaskSpec>, by: Map<string, number[]>) {
  const repo = trajectoriesRepo(db);
  const contexts = new ContextCache(db);
  for (const [taskId, ids] of by) {
    const spec = specs.get(taskId)!;
    if (!judgedSpec(spec)) continue;
    for (const id of ids) {
      const row = repo.row(id);
      const body = repo.body(id);
      if (!row || !body) continue;
      yield { task: spec, run: runRecordOf(gradableRun(loadTrajectory(db, row.source_format, body, contexts))) };
    }
  }
}

const progressText = (done: number, total: number, c: Counters) =>
  `${done} of ${total} re-graded · judge asked ${c.asked}, cached ${c.cached}, failed ${c.failed} · ` +
  `${c.pending} still pending`;

export const regradeJob: JobDefinition<RegradeJobInput, JobResult<'grading.regradeJob'>> = {
  total: (input) => input.ids.length,
  async run(ctx, input) {
    const e = judgeEndpoint(ctx.db);
    // The key is resolved here, in the worker, and lives in the client only (never in the job's input or rows).
    const client = input.judge && e ? judgeClient(e, ctx.keys) : null;
    const c: Counters = { regraded: 0, changed: 0, pending: 0, asked: 0, cached: 0, failed: 0 };
    const problems: { key: string; problem: string }[] = [];
    const specs = new Map<string, TaskSpec>();
    const total = input.ids.length;
    for (let at = ctx.resumeFrom; at < total; at += input.batchSize) {
      if (ctx.signal.aborted) throw new JobCancelled();
      const batch = input.ids.slice(at, at + input.batchSize);
      const by = byTask(ctx.db, batch);
      for (const taskId of by.keys())
        if (!specs.has(taskId)) specs.set(taskId, storedTaskSpec(tasksRepo(ctx.db), taskId).spec);
      const pass =
        client && e
          ? await judgePass(gradables(ctx.db, specs, by), client, e.model, (k) => isCached(ctx.db, k), ctx.signal)
          : null;
      if (ctx.signal.aborted) throw new JobCancelled();
      const o = pass && e ? withFreshVerdicts(cachedJudge(ctx.db, e.model), e.model, pass) : null;
      const done = Math.min(total, at + input.batchSize);
      const next = { ...c };
      if (pass) {
        next.asked += pass.asked;
        next.cached += pass.cached;
        next.failed += pass.failed.length;
      }
      ctx.commitBatch(
        (db) => {
          if (o) storeVerdicts(db, o.verdicts, ctx.now());
          // Without a pass the configured judge's cache still grades what it holds (judge: false, or no client).
          const judge = o?.judge ?? (e ? cachedJudge(db, e.model) : undefined);
          for (const [taskId, ids] of by) {
            const r = regradeTask(db, taskId, specs.get(taskId)!, judge, new Set(ids));
            next.regraded += r.regraded;
            next.changed += r.changed;
            next.pending += pendingAmong(db, r.ids);
          }
        },
        done,
        progressText(done, total, next),
        ['trajectories', 'judge_cache'],
      );
      Object.assign(c, next);
      for (const f of pass?.failed ?? [])
        if (problems.length < MAX_PROBLEMS) problems.push({ key: f.key, problem: withoutKnownKeys(f.problem) });
    }
    return summary(ctx.db, input, c, problems);
  },
};

function pendingAmong(db: ReadDb, ids: readonly number[]): number {
  if (!ids.length) return 0;
  return (
    prepareCached(
      db,
      'SELECT count(*) AS n FROM trajectories WHERE app_pending > 0 AND id IN (SELECT value FROM json_each(?))',
    ).get(JSON.stringify(ids)) as { n: number }
  ).n;
}

/** Counted from the workspace at the end (a resumed job did not see the batches committed before it). */
function summary(db: ReadDb, input: RegradeJobInput, c: Counters, problems: { key: string; problem: string }[]) {
  const s = prepareCached(
    db,
    `SELECT count(*) AS regraded, coalesce(sum(app_pending > 0), 0) AS pending,
       coalesce(sum(disagrees = 1), 0) AS disagreements
     FROM trajectories WHERE graded = 1 AND id IN (SELECT value FROM json_each(?))`,
  ).get(JSON.stringify(input.ids)) as { regraded: number; pending: number; disagreements: number };
  return {
    regraded: s.regraded,
    skipped: input.skipped + (input.ids.length - s.regraded),
    changed: c.changed,
    pending: s.pending,
    disagreements: s.disagreements,
    judge: {
      endpoint: input.judge ? judgeEndpointName(db) : null,
      asked: c.asked,
      cached: c.cached,
      failed: c.failed,
      problems,
    },
  };
}
