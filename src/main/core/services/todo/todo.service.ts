import { z } from 'zod';
import { defineService } from '../define';
import { dateText, oneOf } from '../record-fields';
import { deepCopy, findBy, notFound, objects } from '../lib';
import type { PyObject } from '../../py/pyjson';
import { opt, req } from '../request-model';

/**
 * reference/claw-eval.md §6.6. There is no /todo/tasks/get route (tasks exposing todo_get_task
 * get a 404), and creations land only in `calls`, not in an action list.
 */
const TaskRecord = z.looseObject({
  task_id: z.string(),
  title: z.string(),
  status: oneOf(['pending', 'in_progress', 'blocked', 'completed', 'cancelled']),
  priority: oneOf(['low', 'medium', 'high', 'urgent']),
  due_date: dateText().nullable(),
});

type State = { tasks: PyObject[] };

export const todoService = defineService<State>({
  id: 'todo',
  port: 9102,
  fixtureEnv: 'TODO_FIXTURES',
  defaultFixture: 'tasks/T007zh_todo_management/fixtures/todo/tasks.json',
  probe: { method: 'POST', path: '/todo/tasks' },
  actionKeys: ['deleted', 'updated_tasks'],
  recordSchema: TaskRecord,
  recordKey: 'task_id',
  upstreamReads: ['task_id', 'status'],
  load: (records) => ({ tasks: objects(records) }),
  routes: {
    '/todo/tasks': {
      model: { status: opt('str', 'all') },
      noBody: 'defaults',
      handle: (r, { state }) => {
        const tasks = state.tasks.filter((t) => r.status === 'all' || t.status === r.status).map(deepCopy);
        return { tasks, total: tasks.length };
      },
    },
    '/todo/tasks/update': {
      model: {
        task_id: req('str'),
        title: opt('str'),
        priority: opt('str'),
        status: opt('str'),
        tags: opt('list[str]'),
      },
      handle: (r, ctx) => {
        const task = findBy(ctx.state.tasks, 'task_id', r.task_id!);
        if (!task) return notFound('Task', r.task_id!);
        // In place: the stored object may also be a create call's logged response (Q15).
        for (const k of ['title', 'priority', 'status', 'tags'] as const) if (r[k] !== null) task[k] = r[k]!;
        ctx.record('updated_tasks', deepCopy(task));
        return { status: 'updated', task: deepCopy(task) };
      },
    },
    '/todo/tasks/create': {
      model: { title: req('str'), description: opt('str'), priority: opt('str', 'medium'), due_date: opt('str') },
      handle: (r, { state, timestamp }) => {
        const task: PyObject = {
          // From the list length, so it can collide with a surviving id after a delete.
          task_id: `todo_${String(state.tasks.length + 1).padStart(3, '0')}`,
          title: r.title!,
          description: r.description ?? '',
          status: 'pending',
          priority: r.priority!,
          due_date: r.due_date!,
          tags: [],
          created_at: timestamp(),
        };
        // Stored and returned as one object: a later update shows in this call's audit record.
        state.tasks.push(task);
        return { status: 'created', task };
      },
    },
    '/todo/tasks/delete': {
      model: { task_id: req('str') },
      handle: (r, ctx) => {
        const i = ctx.state.tasks.findIndex((t) => t.task_id === r.task_id);
        if (i < 0) return notFound('Task', r.task_id!);
        const [task] = ctx.state.tasks.splice(i, 1) as [PyObject];
        ctx.record('deleted', task);
        return { status: 'deleted', task };
      },
    },
  },
});
