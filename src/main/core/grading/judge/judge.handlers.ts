import { ModelError } from '../../agents/model-error';
import { prepareCached, type ReadDb } from '../../db/sqlite';
import { modelClientFor } from '../../endpoints/client-for';
import { endpointsRepo } from '../../endpoints/endpoints.repo';
import { AppError, notFound } from '../../lib/errors';
import { preparedMutation, type HandlerMap } from '../../lib/handler-types';
import { storedTaskSpec } from '../../tasks/task-spec-of';
import { tasksRepo } from '../../tasks/tasks.repo';
import { runRecordOf } from '../run-record';
import { ContextCache, loadTrajectory } from '../../trajectories/load-trajectory';
import { gradableRun, regradeTask } from '../../trajectories/stored-grade';
import { trajectoriesRepo } from '../../trajectories/trajectories.repo';
import { isCached, storeVerdicts } from './judge-cache';
import { judgePass, type JudgePassResult } from './judge-pass';
import { configuredJudge, judgeEndpoint, judgeEndpointName, setJudgeEndpoint } from './judge-settings';

function judgeSettings(db: ReadDb) {
  const name = judgeEndpointName(db);
  const e = judgeEndpoint(db, name);
  const cached = e
    ? (prepareCached(db, 'SELECT count(*) AS n FROM judge_cache WHERE model = ?').get(e.model) as { n: number }).n
    : 0;
  return { endpoint: name, model: e?.model ?? null, missing: name !== null && !e, cached };
}

type Scope = { taskId?: string | undefined; collection?: string | undefined };

/** The graded trajectories in scope, by task (ids in id order). */
function rowsInScope(db: ReadDb, s: Scope): Map<string, number[]> {
  if (s.collection !== undefined && !prepareCached(db, 'SELECT 1 FROM collections WHERE name = ?').get(s.collection))
    throw notFound(`collection ${s.collection}`);
  const rows = (
    s.taskId !== undefined
      ? prepareCached(db, 'SELECT id, task_id FROM trajectories WHERE task_id = ? AND graded = 1 ORDER BY id').all(
          s.taskId,
        )
      : prepareCached(db, 'SELECT id, task_id FROM trajectories WHERE collection = ? AND graded = 1 ORDER BY id').all(
          s.collection,
        )
  ) as { id: number; task_id: string }[];
  const by = new Map<string, number[]>();
  for (const r of rows) by.set(r.task_id, [...(by.get(r.task_id) ?? []), r.id]);
  return by;
}

/** The runs the judge pre-pass reads, one trajectory at a time (a collection may be large). */
function* gradables(db: ReadDb, by: Map<string, number[]>) {
  const repo = trajectoriesRepo(db);
  const contexts = new ContextCache(db);
  for (const [taskId, ids] of by) {
    const { spec } = storedTaskSpec(tasksRepo(db), taskId);
    const judged = spec.checks.some((c) => c.kind === 'llm_judge') || spec.prohibited.some((r) => r.kind === 'judge');
    if (!judged) continue;
    for (const id of ids) {
      const row = repo.row(id);
      const body = repo.body(id);
      if (!row || !body) continue;
      yield { task: spec, run: runRecordOf(gradableRun(loadTrajectory(db, row.source_format, body, contexts))) };
    }
  }
}

const noJudge: JudgePassResult = { verdicts: [], asked: 0, cached: 0, failed: [] };

/**
 * grading.regrade: the judge pre-pass first (prepare: async, outside the write transaction, never writes), then
 * in the transaction the verdicts go to judge_cache and every trajectory in scope is graded from the cache.
 */
const regrade = preparedMutation<'grading.regrade'>()({
  async prepare(input, ctx) {
    const by = rowsInScope(ctx.db, input);
    const e = judgeEndpoint(ctx.db);
    if (!input.judge || !e) return noJudge;
    try {
      const client = modelClientFor(e, ctx.keys);
      return await judgePass(gradables(ctx.db, by), client, e.model, (k) => isCached(ctx.db, k));
    } catch (err) {
      if (err instanceof ModelError) throw new AppError('BAD_REQUEST', `judge endpoint "${e.name}": ${err.message}`);
      throw err;
    }
  },
  write(input, pass, ctx) {
    storeVerdicts(ctx.db, pass.verdicts, ctx.now());
    const judge = configuredJudge(ctx.db);
    let regraded = 0;
    let changed = 0;
    const touched: number[] = [];
    for (const [taskId, ids] of rowsInScope(ctx.db, input)) {
      const { spec } = storedTaskSpec(tasksRepo(ctx.db), taskId);
      const r = regradeTask(ctx.db, taskId, spec, judge, new Set(ids));
      regraded += r.regraded;
      changed += r.changed;
      touched.push(...r.ids);
    }
    const pending = touched.length
      ? (
          prepareCached(
            ctx.db,
            'SELECT count(*) AS n FROM trajectories WHERE app_pending > 0 AND id IN (SELECT value FROM json_each(?))',
          ).get(JSON.stringify(touched)) as { n: number }
        ).n
      : 0;
    if (touched.length) ctx.touch('trajectories', touched);
    return {
      regraded,
      changed,
      pending,
      judge: {
        endpoint: judgeEndpointName(ctx.db),
        asked: pass.asked,
        cached: pass.cached,
        failed: pass.failed,
      },
    };
  },
});

/** The graded trajectories a re-grade job will grade, in id order, and how many of the given ids are not graded. */
function jobScope(db: ReadDb, input: Scope & { ids?: number[] | undefined }): { ids: number[]; skipped: number } {
  if (input.ids === undefined) {
    if (input.taskId !== undefined && !tasksRepo(db).get(input.taskId)) throw notFound(`task ${input.taskId}`);
    return { ids: [...rowsInScope(db, input).values()].flat().sort((a, b) => a - b), skipped: 0 };
  }
  const given = [...new Set(input.ids)];
  const ids = (
    prepareCached(
      db,
      'SELECT id FROM trajectories WHERE graded = 1 AND id IN (SELECT value FROM json_each(?)) ORDER BY id',
    ).all(JSON.stringify(given)) as { id: number }[]
  ).map((r) => r.id);
  return { ids, skipped: given.length - ids.length };
}

export const judgeHandlers = {
  'grading.judgeSettings': (_input, ctx) => judgeSettings(ctx.db),
  'grading.setJudge': (input, ctx) => {
    if (input.endpoint !== null && !endpointsRepo(ctx.db).get(input.endpoint))
      throw notFound(`endpoint ${input.endpoint}`);
    setJudgeEndpoint(ctx.db, input.endpoint);
    ctx.touch('workspace_meta');
    return judgeSettings(ctx.db);
  },
  'grading.regrade': regrade,
  /** The scope is resolved now: a resumed job grades the same rows, whatever was imported since. */
  'grading.regradeJob': (input, ctx) => {
    const { ids, skipped } = jobScope(ctx.db, input);
    return {
      jobId: ctx.jobs.start('grading.regradeJob', { ids, skipped, judge: input.judge, batchSize: input.batchSize }),
    };
  },
} satisfies Partial<HandlerMap>;
