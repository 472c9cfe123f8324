import { randomUUID } from 'node:crypto';
import type { ParsedInput } from '../../../shared/contract';
import type { QueryContext } from '../context';
import { pagedIds } from '../db/paged-list';
import { prepareCached } from '../db/sqlite';
import { referencePlanProblem } from '../agents/reference-agent';
import type { HandlerMap } from '../lib/handler-types';
import { AppError, notFound } from '../lib/errors';
import { storedTaskSpec } from '../tasks/task-spec-of';
import { TASK_TABLE, tasksRepo } from '../tasks/tasks.repo';
import { partyLabels } from './run-parties';
import type { RunJobInput } from './run.job';
import { runsRepo } from './runs.repo';
import { runReport } from './report';

/** At most this many tasks without a reference plan are named in the refusal. */
const NAMED = 10;

/**
 * runs.start's input resolved once, before the job starts (a resumed job re-reads exactly this):
 * the task ids (given, all, narrowed by a tasks-grid filter; in id order), the endpoints checked,
 * the labels the run row shows, and the collection's name.
 */
export function resolveRun(input: ParsedInput<'runs.start'>, ctx: QueryContext): RunJobInput {
  const repo = tasksRepo(ctx.db);
  let ids: string[];
  if (input.where) {
    const all = pagedIds<string>(ctx.db, TASK_TABLE, { ...input.where, limit: 1_000_000 }).ids;
    ids = input.tasks === 'all' ? all : all.filter((id) => new Set(input.tasks).has(id));
  } else if (input.tasks === 'all')
    ids = (prepareCached(ctx.db, 'SELECT task_id FROM tasks ORDER BY task_id').all() as { task_id: string }[]).map(
      (r) => r.task_id,
    );
  else {
    const missing = input.tasks.filter((id) => !repo.get(id));
    if (missing.length)
      throw new AppError(
        'INVALID_INPUT',
        `no such task${missing.length > 1 ? 's' : ''}: ${missing.slice(0, NAMED).join(', ')}`,
        missing.slice(0, NAMED).map((id) => ({ path: ['tasks'], message: `unknown task ${id}` })),
      );
    ids = [...new Set(input.tasks)];
  }
  if (!ids.length)
    throw new AppError('INVALID_INPUT', 'no tasks to run: the selection matches none', [
      { path: ['tasks'], message: 'empty selection' },
    ]);
  if (input.agent.kind === 'reference') {
    const problems = ids.flatMap((id) => referencePlanProblem(storedTaskSpec(repo, id).spec) ?? []);
    if (problems.length)
      throw new AppError(
        'INVALID_INPUT',
        `the reference agent replays reference plans; ${problems.length} of the ${ids.length} tasks have none ` +
          `(imported Claw-Eval tasks have none: run them with an endpoint agent, or select the others with ` +
          `--where '{"filters":[{"field":"origin","conditions":[{"op":"notEqual","value":"imported"}]}]}')`,
        problems.slice(0, NAMED).map((message) => ({ path: ['tasks'], message })),
      );
  }
  const labels = partyLabels(ctx.db, input.agent, input.user);
  const stamp = ctx
    .now()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
  const who = input.agent.kind === 'reference' ? 'reference' : input.agent.endpoint;
  const collection = input.collection ?? `${who} ${stamp} ${randomUUID().slice(0, 4)}`;
  return {
    name: input.name ?? `${labels.agent.label} on ${ids.length} task${ids.length === 1 ? '' : 's'} × ${input.trials}`,
    taskIds: ids,
    agent: input.agent,
    user: input.user,
    labels,
    trials: input.trials,
    concurrency: input.concurrency,
    collection,
    maxAttempts: input.maxAttempts,
    selection: { tasks: input.tasks, ...(input.where ? { where: input.where } : {}), resolved: ids.length },
  };
}

export const runsHandlers = {
  'runs.start': (input, ctx) => ({ jobId: ctx.jobs.start('runs.start', resolveRun(input, ctx)) }),
  'runs.list': (input, ctx) => runsRepo(ctx.db).list(input.kind, input.offset, input.limit),
  'runs.get': (input, ctx) => {
    const row = runsRepo(ctx.db).list('all', 0, 1, input.id).rows[0];
    if (!row) throw notFound(`run ${input.id}`);
    return row;
  },
  'runs.report': (input, ctx) => runReport(ctx.db, input),
} satisfies Partial<HandlerMap>;
