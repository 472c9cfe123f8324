import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { ok, slotInput } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';

const cores: Core[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

const conformance = async (core: Core, taskId: string) =>
  (await ok(core, 'validation.report', { taskId })).rounds
    .at(-1)!
    .verdicts.find((v) => v.validator === 'slot_conformance')!;

/**
 * A stored generated task is re-validated against the slot it names (slot_id), as it is counted
 * under that slot: after the slot's services change, the task no longer conforms and stops
 * counting as valid there.
 */
describe('re-validating a stored generated task', () => {
  it('holds it to its slot as the slot is now', async () => {
    const { core } = createTestCore();
    cores.push(core);
    const { slots } = await ok(core, 'plan.create', {
      rows: [slotInput({ services: ['helpdesk', 'kb'], scenario: 'cross_service', target_count: 1 })],
    });
    const id = slots[0]!.id;
    const gen = await ok(core, 'generation.run', { seed: 5 });
    await ok(core, 'jobs.wait', { id: gen.jobId, timeoutMs: 120_000 });
    const [task] = (await ok(core, 'tasks.list', {})).rows;
    expect(await conformance(core, task!.task_id)).toMatchObject({ status: 'pass' });

    const run = async () => {
      const { jobId } = await ok(core, 'validation.run', { taskIds: [task!.task_id] });
      await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 120_000 });
    };
    await run();
    expect(await conformance(core, task!.task_id)).toMatchObject({ status: 'pass' });

    await ok(core, 'plan.update', { edits: [{ id, field: 'services', value: ['helpdesk', 'kb', 'crm'] }] });
    await run();
    expect(await conformance(core, task!.task_id)).toMatchObject({
      status: 'fail',
      messages: [{ field: 'services', message: expect.stringContaining('; missing crm') }],
    });
    const row = (await ok(core, 'tasks.list', {})).rows[0]!;
    expect([row.validation_status, row.failed_validator]).toEqual(['invalid', 'slot_conformance']);
    expect((await ok(core, 'generation.slotCounts', { slotIds: [id] })).slots[0]).toMatchObject({ validTasks: 0 });
  });
});
