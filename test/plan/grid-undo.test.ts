import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import type { Input } from '../../src/shared/contract';
import { allSlots, fail, ok, slotInput } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';

// 2 service sets × 2 categories × 3 difficulties × 2 languages × 1 scenario × 2 dates = 48 slots, 7 per batch.
const GRID: Input<'plan.generateGrid'> = {
  serviceSets: [['gmail'], ['calendar', 'gmail']],
  categories: ['a', 'b'],
  referenceDates: ['2026-01-01', '2026-01-02'],
  batchSize: 7,
};

/** Issue 21 item 10: a grid-generation job can be undone — its slots go, and only its slots. */
describe('plan.undoGrid', () => {
  let core: Core;
  beforeEach(() => {
    // A clock that moves on each reading: an edit made after the job has a later updated_at than its slots.
    let tick = 0;
    ({ core } = createTestCore({ clock: () => new Date(Date.UTC(2030, 0, 1) + 1000 * tick++) }));
  });
  afterEach(() => core.close());

  const runGrid = async () => {
    const { jobId } = await ok(core, 'plan.generateGrid', GRID);
    expect((await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 })).state).toBe('done');
    return jobId;
  };

  it('deletes the 48 slots the job made and keeps the slots made before and after it', async () => {
    const before = (await ok(core, 'plan.create', { rows: [slotInput({ family: 'mine-before' })] })).slots[0]!;
    const jobId = await runGrid();
    const after = (await ok(core, 'plan.create', { rows: [slotInput({ family: 'mine-after' })] })).slots[0]!;
    expect(await allSlots(core)).toHaveLength(50);

    expect(await ok(core, 'plan.undoGrid', { jobId })).toEqual({ deleted: 48 });
    expect((await allSlots(core)).map((s) => s.id)).toEqual([before.id, after.id]);
    // Twice is refused: nothing of the job is left.
    expect((await fail(core, 'plan.undoGrid', { jobId })).message).toMatch(/no slots left/);
  });

  it('never takes a later slot that reused the id of a deleted grid slot', async () => {
    const jobId = await runGrid();
    const grid = await allSlots(core);
    const last = grid.at(-1)!;
    await ok(core, 'plan.delete', { ids: [last.id] });
    const reused = (await ok(core, 'plan.create', { rows: [slotInput({ family: 'reuses-an-id' })] })).slots[0]!;
    expect(reused.id).toBe(last.id); // SQLite hands out max(id) + 1 again

    expect(await ok(core, 'plan.undoGrid', { jobId })).toEqual({ deleted: 47 });
    expect((await allSlots(core)).map((s) => s.family)).toEqual(['reuses-an-id']);
  });

  it('refuses, deleting nothing, once tasks were generated for its slots or a slot was edited', async () => {
    const jobId = await runGrid();
    const grid = await allSlots(core);
    const gen = await ok(core, 'generation.run', { slots: { ids: [grid[0]!.id] }, seed: 1 });
    expect((await ok(core, 'jobs.wait', { id: gen.jobId, timeoutMs: 120_000 })).state).toBe('done');
    const refused = await fail(core, 'plan.undoGrid', { jobId });
    expect(refused).toMatchObject({ code: 'CONFLICT' });
    expect(refused.message).toMatch(/tasks were generated for the grid's slots since/);
    expect(await allSlots(core)).toHaveLength(48);

    const other = await runGrid();
    const mine = (await allSlots(core)).filter((s) => !grid.some((g) => g.id === s.id));
    await ok(core, 'plan.update', { edits: [{ id: mine[3]!.id, field: 'notes', value: 'keep me' }] });
    expect((await fail(core, 'plan.undoGrid', { jobId: other })).message).toMatch(
      /1 of the grid's 48 slot\(s\) were edited/,
    );
    expect(await allSlots(core)).toHaveLength(96);
  });

  it('names a job that is not a grid job', async () => {
    expect(await fail(core, 'plan.undoGrid', { jobId: 'nope' })).toMatchObject({ code: 'NOT_FOUND' });
  });
});
