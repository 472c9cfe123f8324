import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { ok, slotInput } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';

/** Issue 21 item 7: a generated task's records live in its spec; the Fixtures section shows and edits them. */
describe('fixtures of generated tasks (records inline in the spec)', () => {
  let core: Core;
  let spec: TaskSpec;
  beforeAll(async () => {
    core = createTestCore().core;
    await ok(core, 'plan.create', {
      rows: [slotInput({ services: ['helpdesk', 'kb'], scenario: 'cross_service', target_count: 1 })],
    });
    const { jobId } = await ok(core, 'generation.run', { seed: 4 });
    expect((await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 120_000 })).state).toBe('done');
    const task = (await ok(core, 'tasks.list', {})).rows.find((r) => r.origin === 'generated')!;
    spec = (await ok(core, 'tasks.get', { taskId: task.task_id })).spec as TaskSpec;
  });
  afterAll(() => core.close());

  it('lists one fixture per service with inline records, with its rows and columns', async () => {
    const { fixtures } = await ok(core, 'tasks.get', { taskId: spec.task_id });
    const inline = spec.services.filter((s) => s.records?.length);
    expect(inline.length).toBeGreaterThan(0);
    expect(fixtures.map((f) => [f.service, f.records])).toEqual(inline.map((s) => [s.name, s.records!.length]));
    const s = inline[0]!;
    const rows = await ok(core, 'tasks.fixtureRows', { taskId: spec.task_id, service: s.name });
    expect(rows.rows.length).toBe(s.records!.length);
    expect(rows.columns).toEqual(expect.arrayContaining(Object.keys(s.records![0]!)));
  });

  it('an edit of an inline record is the next version of the spec, validated', async () => {
    const s = spec.services.find((x) => x.records?.some((r) => typeof Object.values(r)[0] === 'string'))!;
    const rows = await ok(core, 'tasks.fixtureRows', { taskId: spec.task_id, service: s.name });
    const field = rows.columns.find((c) => c !== rows.key && typeof s.records![0]![c] === 'string')!;
    const r = await ok(core, 'tasks.updateFixtureCell', {
      taskId: spec.task_id,
      service: s.name,
      index: 0,
      field,
      value: '"edited in the grid"',
    });
    expect(r.version).toBe(2);
    expect(r.status).not.toBeNull();
    const after = (await ok(core, 'tasks.get', { taskId: spec.task_id })).spec as TaskSpec;
    expect(after.services.find((x) => x.name === s.name)!.records![0]![field]).toBe('edited in the grid');
    expect((await ok(core, 'tasks.versions', { taskId: spec.task_id }))[0]!.reason).toMatch(/^edit of /);
  });
});
