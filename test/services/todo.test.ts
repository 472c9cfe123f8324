import { describe, expect, it } from 'vitest';
import { Environment } from '../../src/main/core/services/environment';
import { dumpsPy, parsePyJson, type PyObject, type PyValue } from '../../src/main/core/py/pyjson';
import { ServiceInstance } from '../../src/main/core/services/service-instance';
import { todoService } from '../../src/main/core/services/todo/todo.service';

const NOW = new Date('2026-03-05T09:00:00Z');
const FIXTURE: PyValue[] = [
  {
    task_id: 'todo_001',
    title: 'Report',
    description: 'Q1',
    status: 'pending',
    priority: 'high',
    due_date: '2026-03-05',
    tags: ['report'],
    created_at: 'x',
  },
  {
    task_id: 'todo_002',
    title: 'Dentist',
    description: '',
    status: 'completed',
    priority: 'low',
    due_date: null,
    tags: [],
  },
  { task_id: 'todo_003', title: 'Docs', status: 'in_progress', priority: 'medium', due_date: '2026-03-01' },
];
const make = () => new ServiceInstance(todoService, FIXTURE, () => NOW);
const post = <S>(s: ServiceInstance<S>, path: string, body?: PyValue) => s.request('POST', path, body);
const json = <S>(s: ServiceInstance<S>, path: string, body?: PyValue) => post(s, path, body).json as PyObject;
const calls = <S>(s: ServiceInstance<S>) => s.audit().calls as PyObject[];
const ids = (tasks: PyValue) => (tasks as PyObject[]).map((t) => t.task_id);

describe('todo service', () => {
  it('lists every task by default, also for the body-less health probe, which is logged', () => {
    const s = make();
    expect(ids(json(s, '/todo/tasks').tasks!)).toEqual(['todo_001', 'todo_002', 'todo_003']);
    expect(json(s, '/todo/tasks', {}).total).toBe(3);
    expect(calls(s).map((c) => c.request_body)).toEqual([{ status: 'all' }, { status: 'all' }]);
  });

  it('filters on an exact status and returns deep copies', () => {
    const s = make();
    expect(ids(json(s, '/todo/tasks', { status: 'completed' }).tasks!)).toEqual(['todo_002']);
    expect(json(s, '/todo/tasks', { status: 'complete' })).toEqual({ tasks: [], total: 0 });
    const first = (json(s, '/todo/tasks').tasks as PyObject[])[0]!;
    first.title = 'changed';
    expect((json(s, '/todo/tasks').tasks as PyObject[])[0]!.title).toBe('Report');
  });

  it('updates only the non-null fields, in place, and logs a copy in updated_tasks', () => {
    const s = make();
    const r = json(s, '/todo/tasks/update', {
      task_id: 'todo_001',
      status: 'completed',
      title: null,
      tags: ['a'],
      description: 'ignored',
    });
    expect(r).toEqual({
      status: 'updated',
      task: {
        task_id: 'todo_001',
        title: 'Report',
        description: 'Q1',
        status: 'completed',
        priority: 'high',
        due_date: '2026-03-05',
        tags: ['a'],
        created_at: 'x',
      },
    });
    expect(calls(s)[0]!.request_body).toEqual({
      task_id: 'todo_001',
      title: null,
      priority: null,
      status: 'completed',
      tags: ['a'],
    });
    expect(dumpsPy(calls(s)[0]!.request_body)).toBe(
      '{"task_id": "todo_001", "title": null, "priority": null, "status": "completed", "tags": ["a"]}',
    );
    expect((s.audit().updated_tasks as PyObject[])[0]!.status).toBe('completed');
    expect(json(s, '/todo/tasks', { status: 'completed' }).total).toBe(2);
  });

  it('answers unknown ids with HTTP 200 and a logged error', () => {
    const s = make();
    for (const p of ['/todo/tasks/update', '/todo/tasks/delete']) {
      const r = post(s, p, { task_id: 'todo_999' });
      expect(r).toEqual({ status: 200, json: { error: 'Task todo_999 not found' } });
    }
    expect(calls(s)).toHaveLength(2);
    expect(s.audit().deleted).toEqual([]);
    expect(s.audit().updated_tasks).toEqual([]);
  });

  it('creates with defaults and an id from the list length, colliding after a delete', () => {
    const s = make();
    const r = json(s, '/todo/tasks/create', { title: 'New', tags: ['dropped'] });
    expect(dumpsPy(r)).toBe(
      '{"status": "created", "task": {"task_id": "todo_004", "title": "New", "description": "", "status": "pending", ' +
        '"priority": "medium", "due_date": null, "tags": [], "created_at": "2026-03-05T09:00:00+00:00"}}',
    );
    expect(calls(s)[0]!.request_body).toEqual({ title: 'New', description: null, priority: 'medium', due_date: null });
    expect(json(s, '/todo/tasks/delete', { task_id: 'todo_001' }).status).toBe('deleted');
    expect((json(s, '/todo/tasks/create', { title: 'Again' }).task as PyObject).task_id).toBe('todo_004');
    expect(ids(json(s, '/todo/tasks').tasks!)).toEqual(['todo_002', 'todo_003', 'todo_004', 'todo_004']);
    expect(Object.keys(s.audit())).toEqual(['calls', 'deleted', 'updated_tasks']);
  });

  it('shares the created task with its audit record, so a later update shows there (Q15)', () => {
    const tools = ['create', 'update'].map((v) => ({ name: v, url: `http://localhost:9102/todo/tasks/${v}` }));
    const env = new Environment({ services: [{ id: 'todo', records: FIXTURE }], tools, now: () => NOW });
    const created = env.call('create', { title: 'New' });
    env.call('update', { task_id: 'todo_004', status: 'completed' });
    // What the model saw was serialised before the update; the audit holds the live object.
    expect(created.text).toContain('"status": "pending"');
    const logged = (env.audits().todo!.calls as PyObject[])[1]!.response_body as PyObject;
    expect((logged.task as PyObject).status).toBe('completed');
  });

  it('deletes the stored object itself and records it', () => {
    const s = make();
    const r = json(s, '/todo/tasks/delete', { task_id: 'todo_002' });
    expect(r.task).toBe((s.audit().deleted as PyObject[])[0]);
    expect(json(s, '/todo/tasks').total).toBe(2);
  });

  it('rejects invalid bodies with 422 and does not log them', () => {
    const s = make();
    expect(post(s, '/todo/tasks/delete', {})).toEqual({
      status: 422,
      json: { detail: [{ type: 'missing', loc: ['body', 'task_id'], msg: 'Field required', input: {} }] },
    });
    const bad = post(s, '/todo/tasks/create', { title: 'x', priority: { value: 'high' } });
    expect(bad.status).toBe(422);
    expect(dumpsPy(bad.json)).toContain('"type": "string_type", "loc": ["body", "priority"]');
    expect(post(s, '/todo/tasks/update', { task_id: ['todo_001'] }).status).toBe(422);
    expect(calls(s)).toEqual([]);
  });

  it('has no /todo/tasks/get route and only POST tool routes', () => {
    const s = make();
    expect(post(s, '/todo/tasks/get', { task_id: 'todo_001' })).toEqual({ status: 404, json: { detail: 'Not Found' } });
    expect(s.request('GET', '/todo/tasks', undefined).status).toBe(405);
  });

  it('reset restores the fixture and clears the audit', () => {
    const s = make();
    json(s, '/todo/tasks/delete', { task_id: 'todo_001' });
    json(s, '/todo/tasks/update', { task_id: 'todo_002', title: 'X' });
    expect(post(s, '/todo/reset').json).toEqual({ status: 'reset' });
    expect(s.audit()).toEqual({ calls: [], deleted: [], updated_tasks: [] });
    expect(json(s, '/todo/tasks')).toEqual({ tasks: parsePyJson(dumpsPy(FIXTURE)), total: 3 });
  });

  it('the parity probe is the first audit call', () => {
    const env = new Environment({ services: [{ id: 'todo', records: FIXTURE }], tools: [], now: () => NOW });
    expect((env.audits().todo!.calls as PyObject[]).map((c) => c.endpoint)).toEqual(['/todo/tasks']);
  });

  // Record schemas against the corpus: test/services/registry.test.ts.
  it('the record schema requires the always-present fields', () => {
    expect(todoService.recordSchema.safeParse({ task_id: 'a', title: 'b', status: 'c', priority: 'd' }).success).toBe(
      false,
    );
  });
});
