import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import type { Slot } from '../../src/shared/contract/entities/slot';
import { allSlots, fail, ok, slotInput } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';

let core: Core;
let now: Date;
let seeded: Slot[];
beforeEach(async () => {
  now = new Date('2026-03-01T09:00:00.000Z');
  ({ core } = createTestCore({ clock: () => now }));
  seeded = (
    await ok(core, 'plan.create', {
      rows: [
        slotInput({ family: 'a' }),
        slotInput({ family: 'b', services: 'calendar' }),
        slotInput({ family: 'c', target_count: 4 }),
      ],
    })
  ).slots;
  now = new Date('2026-03-02T10:00:00.000Z');
});
afterEach(() => core.close());

const paths = (err: { issues?: { path: (string | number)[] }[] }) => (err.issues ?? []).map((i) => i.path.join('.'));

describe('plan.update', () => {
  it('applies edits, stamps updated_at and answers before/after for undo', async () => {
    const r = await ok(core, 'plan.update', {
      edits: [
        { id: 1, field: 'difficulty', value: 'HARD' },
        { id: 2, field: 'services', value: 'gmail calendar' },
        { id: 2, field: 'target_count', value: '9' },
      ],
    });
    expect(r.changes).toEqual([
      { id: 1, field: 'difficulty', before: 'easy', after: 'hard' },
      { id: 2, field: 'services', before: ['calendar'], after: ['gmail', 'calendar'] },
      { id: 2, field: 'target_count', before: 1, after: 9 },
    ]);
    expect(r.slots.map((s) => s.id)).toEqual([1, 2]);
    expect(r.slots[0]).toMatchObject({
      difficulty: 'hard',
      updated_at: now.toISOString(),
      created_at: seeded[0]!.created_at,
    });
    expect(await ok(core, 'plan.get', { id: 2 })).toMatchObject({ services: ['gmail', 'calendar'], target_count: 9 });
    expect(await ok(core, 'plan.get', { id: 3 })).toEqual(seeded[2]);

    // Undo: replay the befores in reverse order.
    await ok(core, 'plan.update', {
      edits: [...r.changes].reverse().map((c) => ({ id: c.id, field: c.field, value: c.before })),
    });
    const undone = await allSlots(core);
    expect(undone.map(({ updated_at: _u, ...s }) => s)).toEqual(seeded.map(({ updated_at: _u, ...s }) => s));
  });

  it('one invalid edit writes nothing; issues name the edit index and field', async () => {
    const before = await allSlots(core);
    const err = await fail(core, 'plan.update', {
      edits: [
        { id: 1, field: 'family', value: 'renamed' },
        { id: 2, field: 'reference_date', value: '2026-02-30' },
        { id: 3, field: 'target_count', value: -4 },
      ],
    });
    expect(err.code).toBe('INVALID_INPUT');
    expect(paths(err)).toEqual(['edits.1.reference_date', 'edits.2.target_count']);
    expect(err.message).toMatch(/nothing was written/);
    expect(await allSlots(core)).toEqual(before);
  });

  it('an edit of a missing slot writes nothing and names the edit', async () => {
    const before = await allSlots(core);
    const err = await fail(core, 'plan.update', {
      edits: [
        { id: 1, field: 'notes', value: 'x' },
        { id: 99, field: 'notes', value: 'y' },
      ],
    });
    expect(paths(err)).toEqual(['edits.1.id']);
    expect(await allSlots(core)).toEqual(before);
  });
});

describe('plan.delete and plan.restore', () => {
  it('delete answers the full rows; restore puts them back with the same ids and created_at', async () => {
    const del = await ok(core, 'plan.delete', { ids: [3, 1] });
    expect(del.deleted).toEqual([seeded[2], seeded[0]]);
    expect((await allSlots(core)).map((s) => s.id)).toEqual([2]);
    const restored = await ok(core, 'plan.restore', { slots: del.deleted });
    expect(restored.slots.map((s) => s.id)).toEqual([3, 1]);
    const after = await allSlots(core);
    expect(after.map(({ updated_at: _u, ...s }) => s)).toEqual(seeded.map(({ updated_at: _u, ...s }) => s));
  });

  it('deleting a missing id deletes nothing', async () => {
    expect((await fail(core, 'plan.delete', { ids: [1, 42] })).code).toBe('NOT_FOUND');
    expect(await allSlots(core)).toEqual(seeded);
  });

  it('restore refuses ids that exist and writes nothing', async () => {
    const { deleted } = await ok(core, 'plan.delete', { ids: [2] });
    const err = await fail(core, 'plan.restore', { slots: [deleted[0]!, seeded[0]!] });
    expect(err.code).toBe('INVALID_INPUT');
    expect(paths(err)).toEqual(['slots.1.id']);
    expect((await allSlots(core)).map((s) => s.id)).toEqual([1, 3]);
  });

  it('restore refuses the same id twice in one call, with an issue rather than an internal error', async () => {
    const { deleted } = await ok(core, 'plan.delete', { ids: [2] });
    const err = await fail(core, 'plan.restore', { slots: [deleted[0]!, deleted[0]!] });
    expect(err.code).toBe('INVALID_INPUT');
    expect(paths(err)).toEqual(['slots.1.id']);
    expect((await allSlots(core)).map((s) => s.id)).toEqual([1, 3]);
  });

  it('delete with a repeated id deletes once and answers the row once, so restore can undo it', async () => {
    const { deleted } = await ok(core, 'plan.delete', { ids: [2, 2] });
    expect(deleted.map((s) => s.id)).toEqual([2]);
    await ok(core, 'plan.restore', { slots: deleted });
    expect((await allSlots(core)).map((s) => s.id)).toEqual([1, 2, 3]);
  });
});

describe('plan.paste', () => {
  it('creates rows without an id and updates rows with one; cells arrive as text', async () => {
    const r = await ok(core, 'plan.paste', {
      rows: [
        { id: 1, values: { difficulty: 'Medium', target_count: '7' } },
        {
          values: {
            family: 'pasted',
            services: 'crm, gmail',
            category: 'sales',
            difficulty: 'easy',
            language: 'zh',
            reference_date: '2026-04-01',
            scenario: 'temporal',
            target_count: '3',
            notes: 'from a sheet',
          },
        },
      ],
    });
    expect(r.updated).toHaveLength(1);
    expect(r.updated[0]!.before).toEqual(seeded[0]);
    expect(r.updated[0]!.after).toMatchObject({
      id: 1,
      difficulty: 'medium',
      target_count: 7,
      updated_at: now.toISOString(),
    });
    expect(r.created).toHaveLength(1);
    expect(r.created[0]).toMatchObject({
      id: 4,
      family: 'pasted',
      services: ['gmail', 'crm'],
      target_count: 3,
      language: 'zh',
    });
    expect((await allSlots(core)).length).toBe(4);
  });

  it('is all-or-nothing: one bad cell writes nothing and is located by row and field', async () => {
    const before = await allSlots(core);
    const err = await fail(core, 'plan.paste', {
      rows: [
        { id: 1, values: { family: 'changed' } },
        {
          values: {
            family: 'new',
            services: 'gmail',
            category: 'x',
            difficulty: 'easy',
            language: 'en',
            reference_date: '2026-04-01',
            scenario: 'safety',
          },
        },
        { id: 2, values: { difficulty: 'extreme' } },
        {
          values: {
            family: 'new2',
            services: 'gmail',
            category: 'x',
            difficulty: 'easy',
            language: 'en',
            reference_date: '2026-04-31',
            scenario: 'safety',
          },
        },
        { id: 77, values: { family: 'ghost' } },
      ],
    });
    expect(err.code).toBe('INVALID_INPUT');
    expect(paths(err)).toEqual(['rows.2.difficulty', 'rows.3.reference_date', 'rows.4.id']);
    expect(await allSlots(core)).toEqual(before);
  });

  it('a new row missing a required field is refused', async () => {
    const err = await fail(core, 'plan.paste', { rows: [{ values: { family: 'only a family' } }] });
    expect(paths(err)).toEqual(expect.arrayContaining(['rows.0.services', 'rows.0.category']));
    expect((await allSlots(core)).length).toBe(3);
  });
});
