import type { HandlerMap } from '../lib/handler-types';
import { notFound } from '../lib/errors';
import { importTasks } from './import-tasks';
import { tasksRepo } from './tasks.repo';
import { storedTaskSpec } from './task-spec-of';
import { fixtureRows, updateFixtureCell } from './fixture-edit';
import { fixturesOfTask } from './spec-fixtures';
import { revertTo, versionDiff } from './task-versions';
import { pagedIds, pagedValues } from '../db/paged-list';
import { TASK_TABLE } from './tasks.repo';

export const tasksHandlers = {
  'tasks.list': (input, ctx) => tasksRepo(ctx.db).list(input),
  'tasks.values': (input, ctx) => pagedValues(ctx.db, TASK_TABLE, input.field, input),
  'tasks.ids': (input, ctx) => pagedIds<string>(ctx.db, TASK_TABLE, input),
  'tasks.get': (input, ctx) => {
    const repo = tasksRepo(ctx.db);
    const t = repo.get(input.taskId);
    if (!t) throw notFound(`task ${input.taskId}`);
    return {
      row: t.row,
      spec: t.spec,
      fixtures: fixturesOfTask(repo, input.taskId).map(({ content: _c, inline: _i, ...f }) => f),
    };
  },
  'tasks.import': importTasks,
  'tasks.versions': (input, ctx) => tasksRepo(ctx.db).versions(input.taskId),
  'tasks.checks': (input, ctx) => {
    const { spec, notes } = storedTaskSpec(tasksRepo(ctx.db), input.taskId);
    return { origin: spec.checks_origin, checks: spec.checks, prohibited: spec.prohibited, notes };
  },
  'tasks.fixtureRows': (input, ctx) => fixtureRows(tasksRepo(ctx.db), input.taskId, input.service, input.fixtureEnv),
  'tasks.updateFixtureCell': (input, ctx) => {
    const out = updateFixtureCell(ctx.db, input, ctx.now());
    if (out.status) ctx.touch('tasks'), ctx.touch('validation_reports');
    return out;
  },
  'tasks.versionDiff': (input, ctx) => versionDiff(ctx.db, input.taskId, input.version, input.against),
  'tasks.revert': (input, ctx) => {
    const { ids, ...out } = revertTo(ctx.db, input.taskId, input.version, ctx.now(), input.expectedVersion);
    ctx.touch('tasks');
    ctx.touch('validation_reports');
    if (ids.length) ctx.touch('trajectories', ids);
    return out;
  },
} satisfies Partial<HandlerMap>;
