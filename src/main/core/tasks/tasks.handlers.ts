import type { HandlerMap } from '../lib/handler-types';
import { notFound } from '../lib/errors';
import { importTasks } from './import-tasks';
import { tasksRepo, tasksWriter } from './tasks.repo';
import { storedTaskSpec } from './task-spec-of';
import { fixtureRows, updateFixtureCell } from './fixture-edit';

export const tasksHandlers = {
  'tasks.list': (input, ctx) => tasksRepo(ctx.db).list(input),
  'tasks.get': (input, ctx) => {
    const repo = tasksRepo(ctx.db);
    const t = repo.get(input.taskId);
    if (!t) throw notFound(`task ${input.taskId}`);
    return { row: t.row, spec: t.spec, fixtures: repo.fixtures(input.taskId).map(({ content: _c, ...f }) => f) };
  },
  'tasks.import': importTasks,
  'tasks.versions': (input, ctx) => tasksRepo(ctx.db).versions(input.taskId),
  'tasks.checks': (input, ctx) => {
    const { spec, notes } = storedTaskSpec(tasksRepo(ctx.db), input.taskId);
    return { origin: spec.checks_origin, checks: spec.checks, prohibited: spec.prohibited, notes };
  },
  'tasks.fixtureRows': (input, ctx) => fixtureRows(tasksRepo(ctx.db), input.taskId, input.service, input.fixtureEnv),
  'tasks.updateFixtureCell': (input, ctx) => {
    const out = updateFixtureCell(tasksRepo(ctx.db), tasksWriter(ctx.db), input, ctx.now());
    ctx.touch('tasks');
    return out;
  },
} satisfies Partial<HandlerMap>;
