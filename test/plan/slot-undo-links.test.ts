import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { ok, slotInput } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';

/** Issue 21 item 4: a deleted slot that is restored keeps its tasks and its generation history. */
describe('deleting a slot and undoing keeps its tasks linked', () => {
  let core: Core;
  let slotId: number;
  beforeEach(async () => {
    ({ core } = createTestCore());
    const { slots } = await ok(core, 'plan.create', {
      rows: [slotInput({ services: ['helpdesk', 'kb'], scenario: 'cross_service', target_count: 3, family: 'undo' })],
    });
    slotId = slots[0]!.id;
    const { jobId } = await ok(core, 'generation.run', { slots: { ids: [slotId] }, seed: 3 });
    expect((await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 120_000 })).state).toBe('done');
  });
  afterEach(() => core.close());

  const counts = async () => {
    const row = (await ok(core, 'plan.list', { limit: 1000 })).rows.find((r) => r.id === slotId)!;
    return { generated: row.generated, valid: row.valid };
  };
  const taskCount = async () => (await ok(core, 'tasks.list', {})).total;
  const generateBelowTarget = async () => {
    const { jobId } = await ok(core, 'generation.run', { slots: 'below_target', seed: 9 });
    expect((await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 120_000 })).state).toBe('done');
  };

  it('plan.delete then plan.restore (Ctrl+Z of a selection delete)', async () => {
    const before = await counts();
    expect(before.valid).toBe(3);
    const tasks = await taskCount();
    const { deleted } = await ok(core, 'plan.delete', { ids: [slotId] });
    await ok(core, 'plan.restore', { slots: deleted });
    expect(await counts()).toEqual(before);
    await generateBelowTarget();
    expect(await taskCount()).toBe(tasks);
  });

  it('plan.deleteWhere then plan.restoreDeleted (Ctrl+Z of a delete by filter)', async () => {
    const before = await counts();
    const { batch, deleted } = await ok(core, 'plan.deleteWhere', { quick: 'undo' });
    expect(deleted).toBe(1);
    await ok(core, 'plan.restoreDeleted', { batch });
    expect(await counts()).toEqual(before);
  });

  it('a new slot that took a deleted id does not inherit the old tasks', async () => {
    const { deleted } = await ok(core, 'plan.delete', { ids: [slotId] });
    const { slots } = await ok(core, 'plan.create', { rows: [slotInput({ family: 'new', target_count: 1 })] });
    if (slots[0]!.id !== slotId) return; // SQLite gave another id: nothing to inherit
    expect(await counts()).toEqual({ generated: 0, valid: 0 });
    await ok(core, 'plan.delete', { ids: [slotId] });
    await ok(core, 'plan.restore', { slots: deleted });
    expect((await counts()).valid).toBe(0);
  });
});
