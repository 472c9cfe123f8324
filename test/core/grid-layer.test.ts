import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import type { Input } from '../../src/shared/contract';
import { fail, ok, slotInput } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';

/** The grid layer's core half (paged-list + sql-filter) through the plan's procedures. */
const ROWS = [
  { family: 'mail-a', difficulty: 'hard', services: ['gmail'], scenario: 'safety', notes: 'needle here' },
  { family: 'mail-b', difficulty: 'easy', services: ['calendar', 'gmail'], scenario: 'single_service' },
  { family: 'todo-c', difficulty: 'medium', services: ['todo'], scenario: 'multi_turn', category: 'needle-cat' },
  { family: 'kb-d', difficulty: 'easy', services: ['kb', 'gmail'], scenario: 'cross_service' },
  { family: 'crm-e', difficulty: 'hard', services: ['crm'], scenario: 'temporal', target_count: 4 },
];

let core: Core;
beforeAll(async () => {
  ({ core } = createTestCore());
  await ok(core, 'plan.create', { rows: ROWS.map((r) => slotInput(r)) });
});
afterAll(() => core.close());

type ListInput = Input<'plan.list'>;
const ids = async (input: Partial<ListInput>) =>
  (await ok(core, 'plan.list', { limit: 100, ...input } as ListInput)).rows.map((r) => r.id);

describe('filters on a list column match elements, not stored JSON', () => {
  it('equals and begins with gmail find the slots whose services include gmail', async () => {
    expect(
      await ids({ filters: [{ field: 'services', operator: 'AND', conditions: [{ op: 'equals', value: 'gmail' }] }] }),
    ).toEqual([1, 2, 4]);
    expect(
      await ids({
        filters: [{ field: 'services', operator: 'AND', conditions: [{ op: 'startsWith', value: 'gma' }] }],
      }),
    ).toEqual([1, 2, 4]);
    expect(
      await ids({
        filters: [{ field: 'services', operator: 'AND', conditions: [{ op: 'notEqual', value: 'gmail' }] }],
      }),
    ).toEqual([3, 5]);
  });
  it('the set filter (in) takes any of the checked values; none checked matches nothing', async () => {
    const set = (field: string, values: string[]) =>
      ids({ filters: [{ field, operator: 'AND', conditions: [{ op: 'in', values }] }] } as Partial<ListInput>);
    expect(await set('services', ['kb', 'todo'])).toEqual([3, 4]);
    expect(await set('difficulty', ['easy', 'medium'])).toEqual([2, 3, 4]);
    expect(await set('difficulty', [])).toEqual([]);
  });
});

describe('enum columns sort by their declared order', () => {
  it('difficulty sorts easy, medium, hard (not alphabetically) both ways, ties by id', async () => {
    expect(await ids({ sort: [{ field: 'difficulty', dir: 'asc' }] })).toEqual([2, 4, 3, 1, 5]);
    expect(await ids({ sort: [{ field: 'difficulty', dir: 'desc' }] })).toEqual([5, 1, 3, 4, 2]);
  });
});

describe('quick search', () => {
  it("matches any of the grid's text columns, combined with the filters", async () => {
    expect(await ids({ quick: 'needle' })).toEqual([1, 3]);
    expect(
      await ids({
        quick: 'needle',
        filters: [{ field: 'difficulty', operator: 'AND', conditions: [{ op: 'equals', value: 'hard' }] }],
      }),
    ).toEqual([1]);
    expect(await ids({ quick: '100%' })).toEqual([]);
  });
});

describe('set filter values, select all matching, stats and delete by filter', () => {
  it('lists distinct values with counts under the other filters, enums in declared order, lists per item', async () => {
    const d = await ok(core, 'plan.values', { field: 'difficulty', filters: [] } as Input<'plan.values'>);
    expect(d).toEqual({
      values: [
        { value: 'easy', count: 2 },
        { value: 'medium', count: 1 },
        { value: 'hard', count: 2 },
      ],
      truncated: false,
    });
    const s = await ok(core, 'plan.values', {
      field: 'services',
      filters: [
        { field: 'difficulty', operator: 'AND', conditions: [{ op: 'in', values: ['easy'] }] },
        { field: 'services', operator: 'AND', conditions: [{ op: 'in', values: ['kb'] }] },
      ],
    } as Input<'plan.values'>);
    // Its own filter is left out (every value stays checkable); the difficulty filter applies.
    expect(s.values).toEqual([
      { value: 'calendar', count: 1 },
      { value: 'gmail', count: 2 },
      { value: 'kb', count: 1 },
    ]);
  });
  it('answers every id matching the filter and stats that follow it', async () => {
    const f = [
      { field: 'services', operator: 'AND' as const, conditions: [{ op: 'equals' as const, value: 'gmail' }] },
    ];
    expect(await ok(core, 'plan.ids', { filters: f } as Input<'plan.ids'>)).toEqual({ ids: [1, 2, 4], total: 3 });
    const stats = await ok(core, 'plan.stats', { filters: f } as Input<'plan.stats'>);
    expect(stats.slots).toBe(3);
    expect(stats.byService).toEqual({ calendar: 1, gmail: 3, kb: 1 });
    const page = await ok(core, 'plan.list', { filters: f } as ListInput);
    expect([page.total, page.unfiltered]).toEqual([3, 5]);
  });
  it('deletes by filter with a count, and puts the batch back on undo', async () => {
    const f = [
      { field: 'difficulty', operator: 'AND' as const, conditions: [{ op: 'in' as const, values: ['hard'] }] },
    ];
    expect((await fail(core, 'plan.deleteWhere', { filters: [] })).message).toMatch(/needs a filter/);
    const del = await ok(core, 'plan.deleteWhere', { filters: f } as Input<'plan.deleteWhere'>);
    expect(del.deleted).toBe(2);
    expect(await ids({})).toEqual([2, 3, 4]);
    expect(await ok(core, 'plan.restoreDeleted', { batch: del.batch })).toEqual({ restored: 2, conflicts: 0 });
    const back = await ok(core, 'plan.get', { id: 5 });
    expect([back.family, back.target_count, back.services]).toEqual(['crm-e', 4, ['crm']]);
  });
});

describe('undo never overwrites another writer', () => {
  it('an edit carrying its expected value is skipped and reported when the cell changed or slot gone', async () => {
    await ok(core, 'plan.update', { edits: [{ id: 2, field: 'family', value: 'theirs' }] });
    const r = await ok(core, 'plan.update', {
      edits: [
        { id: 2, field: 'family', value: 'mine-before', expected: 'mine-after' },
        { id: 3, field: 'family', value: 'todo-undo', expected: 'todo-c' },
        { id: 999, field: 'family', value: 'x', expected: 'y' },
      ],
    });
    expect(r.changes.map((c) => [c.id, c.after])).toEqual([[3, 'todo-undo']]);
    expect(r.skipped).toEqual([
      { id: 2, field: 'family', current: 'theirs', reason: 'changed' },
      { id: 999, field: 'family', current: null, reason: 'deleted' },
    ]);
    expect((await ok(core, 'plan.get', { id: 2 })).family).toBe('theirs');
  });
  it('an edit of a slot another process deleted says so', async () => {
    const e = await fail(core, 'plan.update', { edits: [{ id: 998, field: 'family', value: 'x' }] });
    expect(e.message).toMatch(/slot 998 was deleted by another writer/);
  });
});
