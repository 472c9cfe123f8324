import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import type { Input } from '../../src/shared/contract';
import { fail, ok, slotInput } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';

/** Ten rows with known values; ids are 1..10 in this order (a new workspace starts empty). */
const ROWS = [
  { family: 'alpha', difficulty: 'easy', target_count: 5, services: ['gmail'], reference_date: '2026-01-10' },
  {
    family: 'beta',
    difficulty: 'hard',
    target_count: 2,
    services: ['calendar', 'gmail'],
    reference_date: '2026-02-01',
  },
  {
    family: 'alphabet',
    difficulty: 'medium',
    target_count: 5,
    services: ['todo'],
    reference_date: '2026-03-15',
    language: 'zh',
  },
  { family: '100%_done', difficulty: 'easy', target_count: 0, services: ['crm'], reference_date: '2026-04-01' },
  { family: '100 percent done', difficulty: 'hard', target_count: 7, services: ['rss'], reference_date: '2026-05-01' },
  {
    family: '1000x done',
    difficulty: 'medium',
    target_count: 3,
    services: ['kb'],
    reference_date: '2026-06-01',
    language: 'zh',
  },
  { family: 'under_score', difficulty: 'easy', target_count: 5, services: ['notes'], reference_date: '2026-07-01' },
  { family: 'underXscore', difficulty: 'hard', target_count: 1, services: ['finance'], reference_date: '2026-08-01' },
  { family: 'back\\slash', difficulty: 'medium', target_count: 9, services: ['config'], reference_date: '2026-09-01' },
  {
    family: 'Gamma',
    difficulty: 'easy',
    target_count: 2,
    services: ['helpdesk', 'calendar'],
    reference_date: '2026-10-01',
  },
];

let core: Core;
let workspacePath: string;
beforeAll(async () => {
  ({ core, workspacePath } = createTestCore());
  const created = await ok(core, 'plan.create', { rows: ROWS.map((r) => slotInput(r)) });
  expect(created.slots.map((s) => s.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});
afterAll(() => core.close());

type ListInput = Input<'plan.list'>;
const ids = async (input: ListInput) => (await ok(core, 'plan.list', input)).rows.map((r) => r.id);
const filtered = (
  field: string,
  conditions: { op: string; value?: string | number; valueTo?: string | number }[],
  operator: 'AND' | 'OR' = 'AND',
) => ids({ limit: 100, filters: [{ field, operator, conditions }] } as ListInput);

describe('plan.list paging', () => {
  it('defaults to id order and pages without gaps or repeats; total counts every row', async () => {
    const seen: number[] = [];
    for (let offset = 0; offset < 12; offset += 3) {
      const page = await ok(core, 'plan.list', { offset, limit: 3 });
      expect(page.total).toBe(10);
      seen.push(...page.rows.map((r) => r.id));
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('an offset past the end answers no rows and the same total', async () => {
    expect(await ok(core, 'plan.list', { offset: 50, limit: 10 })).toEqual({ rows: [], total: 10 });
  });
});

describe('plan.list sorting', () => {
  it('sorts ascending and descending; ties follow the id in the same direction', async () => {
    expect(await ids({ sort: [{ field: 'target_count', dir: 'asc' }] })).toEqual([4, 8, 2, 10, 6, 1, 3, 7, 5, 9]);
    expect(await ids({ sort: [{ field: 'target_count', dir: 'desc' }] })).toEqual([9, 5, 7, 3, 1, 6, 10, 2, 8, 4]);
  });

  it('sorts by several keys in order', async () => {
    const r = await ids({
      sort: [
        { field: 'difficulty', dir: 'asc' },
        { field: 'target_count', dir: 'desc' },
      ],
    });
    // difficulty in its declared order (easy, medium, hard), not alphabetically
    expect(r).toEqual([1, 7, 10, 4, 9, 3, 6, 5, 2, 8]);
  });

  it('sorts text by reference date and services', async () => {
    expect(await ids({ sort: [{ field: 'reference_date', dir: 'desc' }], limit: 3 })).toEqual([10, 9, 8]);
    expect((await ids({ sort: [{ field: 'services', dir: 'asc' }] })).length).toBe(10);
  });

  it('pages stay stable over ties', async () => {
    const all = await ids({ sort: [{ field: 'difficulty', dir: 'asc' }], limit: 100 });
    const paged: number[] = [];
    for (let offset = 0; offset < 10; offset += 4)
      paged.push(...(await ids({ sort: [{ field: 'difficulty', dir: 'asc' }], offset, limit: 4 })));
    expect(paged).toEqual(all);
  });

  it('an unknown or unsortable field is INVALID_INPUT', async () => {
    for (const field of ['bogus', 'notes', 'id; DROP TABLE coverage_slots']) {
      const err = await fail(core, 'plan.list', { sort: [{ field, dir: 'asc' }] });
      expect(err.code, field).toBe('INVALID_INPUT');
      expect(err.issues?.[0]?.path).toEqual(['sort', 0, 'field']);
    }
    expect(await fail(core, 'plan.list', { sort: [{ field: 'id', dir: 'sideways' }] })).toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});

describe('plan.list filters', () => {
  it('text operators', async () => {
    expect(await filtered('family', [{ op: 'contains', value: 'lph' }])).toEqual([1, 3]);
    expect(await filtered('family', [{ op: 'contains', value: 'GAMMA' }])).toEqual([10]);
    expect(await filtered('family', [{ op: 'notContains', value: 'done' }])).toEqual([1, 2, 3, 7, 8, 9, 10]);
    expect(await filtered('family', [{ op: 'equals', value: 'alpha' }])).toEqual([1]);
    expect(await filtered('family', [{ op: 'notEqual', value: 'alpha' }])).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await filtered('family', [{ op: 'startsWith', value: 'alpha' }])).toEqual([1, 3]);
    expect(await filtered('family', [{ op: 'endsWith', value: 'done' }])).toEqual([4, 5, 6]);
    expect(await filtered('services', [{ op: 'contains', value: 'calendar' }])).toEqual([2, 10]);
  });

  it('number and date comparisons; inRange includes both ends', async () => {
    expect(await filtered('target_count', [{ op: 'lessThan', value: 2 }])).toEqual([4, 8]);
    expect(await filtered('target_count', [{ op: 'lessThanOrEqual', value: 2 }])).toEqual([2, 4, 8, 10]);
    expect(await filtered('target_count', [{ op: 'greaterThan', value: 5 }])).toEqual([5, 9]);
    expect(await filtered('target_count', [{ op: 'greaterThanOrEqual', value: '5' }])).toEqual([1, 3, 5, 7, 9]);
    expect(await filtered('target_count', [{ op: 'inRange', value: 2, valueTo: 3 }])).toEqual([2, 6, 10]);
    expect(await filtered('reference_date', [{ op: 'inRange', value: '2026-02-01', valueTo: '2026-04-01' }])).toEqual([
      2, 3, 4,
    ]);
    expect(await filtered('reference_date', [{ op: 'lessThan', value: '2026-02-01' }])).toEqual([1]);
  });

  it('OR within a column, AND within a column, AND across columns', async () => {
    expect(
      await filtered(
        'family',
        [
          { op: 'equals', value: 'alpha' },
          { op: 'equals', value: 'beta' },
        ],
        'OR',
      ),
    ).toEqual([1, 2]);
    expect(
      await filtered(
        'family',
        [
          { op: 'startsWith', value: 'alpha' },
          { op: 'endsWith', value: 'bet' },
        ],
        'AND',
      ),
    ).toEqual([3]);
    const across = await ids({
      limit: 100,
      filters: [
        {
          field: 'difficulty',
          operator: 'OR',
          conditions: [
            { op: 'equals', value: 'easy' },
            { op: 'equals', value: 'hard' },
          ],
        },
        { field: 'target_count', operator: 'AND', conditions: [{ op: 'greaterThanOrEqual', value: 5 }] },
      ],
    });
    expect(across).toEqual([1, 5, 7]);
  });

  it('total counts the filtered rows, not the page', async () => {
    const page = await ok(core, 'plan.list', {
      limit: 1,
      filters: [{ field: 'difficulty', operator: 'AND', conditions: [{ op: 'equals', value: 'easy' }] }],
    });
    expect(page.rows.map((r) => r.id)).toEqual([1]);
    expect(page.total).toBe(4);
  });

  it('% and _ and \\ in a value are literal, not LIKE wildcards', async () => {
    expect(await filtered('family', [{ op: 'contains', value: '%' }])).toEqual([4]);
    expect(await filtered('family', [{ op: 'contains', value: '100%' }])).toEqual([4]);
    expect(await filtered('family', [{ op: 'contains', value: '_' }])).toEqual([4, 7]);
    expect(await filtered('family', [{ op: 'startsWith', value: 'under_' }])).toEqual([7]);
    expect(await filtered('family', [{ op: 'endsWith', value: '%_done' }])).toEqual([4]);
    expect(await filtered('family', [{ op: 'contains', value: 'k\\s' }])).toEqual([9]);
  });

  it('values are bound, never spliced into SQL', async () => {
    expect(await filtered('family', [{ op: 'equals', value: "x' OR '1'='1" }])).toEqual([]);
    expect(await filtered('family', [{ op: 'contains', value: "'); DROP TABLE coverage_slots; --" }])).toEqual([]);
    expect((await ok(core, 'plan.list', {})).total).toBe(10);
  });

  it('blank and notBlank', async () => {
    expect(await filtered('category', [{ op: 'blank' }])).toEqual([]);
    expect((await filtered('category', [{ op: 'notBlank' }])).length).toBe(10);
    // The app never stores an empty category; a row written by hand still filters as blank.
    const db = new Database(workspacePath);
    db.prepare("UPDATE coverage_slots SET category = '' WHERE id = 8").run();
    db.close();
    expect(await filtered('category', [{ op: 'blank' }])).toEqual([8]);
    expect(await filtered('category', [{ op: 'notBlank' }])).toEqual([1, 2, 3, 4, 5, 6, 7, 9, 10]);
  });

  it('bad filters are INVALID_INPUT', async () => {
    const bad = [
      { field: 'bogus', operator: 'AND', conditions: [{ op: 'equals', value: 1 }] },
      { field: 'family', operator: 'AND', conditions: [{ op: 'like', value: 'a' }] },
      { field: 'family', operator: 'AND', conditions: [{ op: 'equals' }] },
      { field: 'target_count', operator: 'AND', conditions: [{ op: 'contains', value: '1' }] },
      { field: 'target_count', operator: 'AND', conditions: [{ op: 'inRange', value: 1 }] },
      { field: 'family', operator: 'AND', conditions: [] },
    ];
    for (const f of bad)
      expect((await fail(core, 'plan.list', { filters: [f] })).code, JSON.stringify(f)).toBe('INVALID_INPUT');
  });
});
