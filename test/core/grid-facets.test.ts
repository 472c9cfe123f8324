import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { pagedValues } from '../../src/main/core/db/paged-list';
import { SLOT_TABLE } from '../../src/main/core/plan/slots.repo';
import { openDb, readHandle, type Db, type ReadDb } from '../../src/main/core/db/sqlite';
import type { GridFilter } from '../../src/main/core/db/sql-filter';
import { seededRandom } from '../../src/main/core/services/lib';
import type { Input } from '../../src/shared/contract';
import { DIFFICULTIES, LANGUAGES, SCENARIOS, SERVICE_IDS } from '../../src/shared/contract/entities/slot';
import { ok, slotInput } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';

/**
 * The facet counts (migration 0014) answer set filter lists; they must equal what the plan's own
 * table says after any write. A real workspace file: the demo plan and a generated grid, then a
 * seeded run of the grid's edits (cell edits, undo, paste, deletes and their undo, delete by
 * filter and its undo, CSV import), each followed by every value list compared with the
 * fallback SQL over coverage_slots.
 */
let core: Core;
let db: Db;
let rd: ReadDb;
beforeAll(async () => {
  let workspacePath: string;
  ({ core, workspacePath } = createTestCore());
  await ok(core, 'plan.loadDemo', {});
  const { jobId } = await ok(core, 'plan.generateGrid', {
    serviceSets: [['gmail'], ['calendar', 'gmail'], ['kb', 'crm', 'todo']],
    categories: ['communication', 'finance', 'support'],
    scenarios: ['single_service', 'safety', 'temporal'],
    referenceDates: ['2026-01-01', '2026-01-02'],
    batchSize: 50,
  } as Input<'plan.generateGrid'>);
  expect((await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 })).state).toBe('done');
  db = openDb(workspacePath, { readOnly: true });
  rd = readHandle(db);
});
afterAll(async () => {
  db?.close();
  await core.close();
});

const rnd = seededRandom(8);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
const some = <T>(list: readonly T[]): T[] => list.filter(() => rnd() < 0.5);

const FACETS = ['difficulty', 'language', 'scenario', 'category', 'services'] as const;
const CATEGORIES = ['communication', 'finance', 'support', 'research'];
type Filter = GridFilter['filters'][number];
const set = (field: string, values: string[]): Filter => ({
  field,
  operator: 'AND',
  conditions: [{ op: 'in', values }],
});
const text = (field: string, op: 'equals' | 'notEqual' | 'contains' | 'startsWith', value: string): Filter => ({
  field,
  operator: 'AND',
  conditions: [{ op, value }],
});

/** Filters a researcher combines on the facet columns: set filters, equals, text operators, OR. */
const FILTERS: Filter[][] = [
  [],
  [set('language', ['zh'])],
  [set('difficulty', ['easy', 'hard']), set('language', ['en'])],
  [set('services', ['gmail', 'kb'])],
  [set('services', [''])],
  [set('scenario', ['safety']), text('category', 'contains', 'in')],
  [text('services', 'equals', 'gmail'), text('difficulty', 'notEqual', 'medium')],
  [text('services', 'startsWith', 'cal')],
  [
    {
      field: 'category',
      operator: 'OR',
      conditions: [
        { op: 'startsWith', value: 'fin' },
        { op: 'equals', value: 'x' },
      ],
    },
  ],
  [set('difficulty', [])],
];

function counts() {
  return db
    .prepare(
      `SELECT ${FACETS.join(', ')}, count(*) AS n FROM coverage_slots GROUP BY ${FACETS.join(', ')}
       EXCEPT SELECT ${FACETS.join(', ')}, n FROM coverage_slot_facets`,
    )
    .all();
}

/** Every facet column's list under every filter, from the facet table and from coverage_slots. */
function expectExact(step: string) {
  const rows = (db.prepare('SELECT count(*) AS n FROM coverage_slots').get() as { n: number }).n;
  const facets = (db.prepare('SELECT coalesce(sum(n), 0) AS n FROM coverage_slot_facets').get() as { n: number }).n;
  expect(facets, `${step}: slots counted in the facets`).toBe(rows);
  expect(counts(), `${step}: combinations whose count differs`).toEqual([]);
  for (const filters of FILTERS)
    for (const field of FACETS) {
      const q = { filters, limit: 1000 };
      const fast = pagedValues(rd, SLOT_TABLE, field, q);
      expect(fast, `${step}: ${field} under ${JSON.stringify(filters)}`).toEqual(
        pagedValues(rd, SLOT_TABLE, field, q, { facets: false }),
      );
    }
}

const ids = () => (db.prepare('SELECT id FROM coverage_slots ORDER BY id').all() as { id: number }[]).map((r) => r.id);
const randomValue = (field: (typeof FACETS)[number] | 'family' | 'target_count') => {
  switch (field) {
    case 'difficulty':
      return pick(DIFFICULTIES);
    case 'language':
      return pick(LANGUAGES);
    case 'scenario':
      return pick(SCENARIOS);
    case 'category':
      return pick(CATEGORIES);
    case 'services':
      return [...new Set([pick(SERVICE_IDS), pick(SERVICE_IDS)])].sort(
        (a, b) => SERVICE_IDS.indexOf(a) - SERVICE_IDS.indexOf(b),
      );
    case 'family':
      return `fam-${Math.floor(rnd() * 5)}`;
    case 'target_count':
      return Math.floor(rnd() * 9);
  }
};

describe('set filter lists from the facet counts', () => {
  it('the facet table counts the demo plan and the generated grid', () => {
    expect(ids().length).toBeGreaterThan(100);
    expectExact('after generate');
  });

  it('stays exact through cell edits and their undo, paste, deletes, delete by filter and CSV import', async () => {
    for (let round = 0; round < 12; round++) {
      const all = ids();
      // A range edit: several cells, some on facet columns, some not, one a no-op.
      const fields = [...FACETS, 'family', 'target_count'] as const;
      const edits = Array.from({ length: 6 }, () => {
        const field = pick(fields);
        return { id: pick(all), field, value: randomValue(field) };
      }) as Input<'plan.update'>['edits'];
      const done = await ok(core, 'plan.update', { edits });
      expectExact(`round ${round}: edits`);
      // Undo the edits (the grid sends the before values, newest first, expecting the after values).
      const undo = [...done.changes]
        .reverse()
        .map((c) => ({ id: c.id, field: c.field, value: c.before, expected: c.after }));
      await ok(core, 'plan.update', { edits: undo } as Input<'plan.update'>);
      expectExact(`round ${round}: undo edits`);
      // Paste: two new rows and an update of an existing one.
      await ok(core, 'plan.paste', {
        rows: [
          { values: slotInput({ difficulty: pick(DIFFICULTIES), category: pick(CATEGORIES) }) },
          { values: slotInput({ language: 'zh', services: randomValue('services') }) },
          { id: pick(all), values: { scenario: pick(SCENARIOS), category: pick(CATEGORIES) } },
        ],
      } as Input<'plan.paste'>);
      expectExact(`round ${round}: paste`);
      // Delete a few rows, then undo (restore) half the time.
      const gone = await ok(core, 'plan.delete', { ids: some(ids()).slice(0, 4) });
      expectExact(`round ${round}: delete`);
      if (rnd() < 0.5) {
        await ok(core, 'plan.restore', { slots: gone.deleted });
        expectExact(`round ${round}: undo delete`);
      }
      // Delete by filter (a random set filter on a facet column and one on another), undone most times.
      const filters = [set(pick(['difficulty', 'scenario'] as const), [pick(['easy', 'safety', 'hard'])])];
      if (rnd() < 0.5) filters.push(text('category', 'startsWith', pick(['f', 's', 'c'])) as never);
      const del = await ok(core, 'plan.deleteWhere', { filters } as Input<'plan.deleteWhere'>);
      expectExact(`round ${round}: delete by filter (${del.deleted})`);
      if (rnd() < 0.7) {
        await ok(core, 'plan.restoreDeleted', { batch: del.batch });
        expectExact(`round ${round}: undo delete by filter`);
      }
    }
    // CSV: update two existing rows (one changes facets) and add one.
    const [a, b] = ids();
    const line = (id: number | '', lang: string, cat: string) =>
      `${id},fam,"gmail, kb",${cat},hard,${lang},2026-01-03,safety,2,`;
    const csv = [
      'id,family,services,category,difficulty,language,reference_date,scenario,target_count,notes',
      line(a!, 'zh', 'research'),
      line(b!, 'en', 'communication'),
      line('', 'zh', 'finance'),
    ].join('\n');
    await ok(core, 'plan.importCsv', { csv, file: 'edit.csv' } as Input<'plan.importCsv'>);
    expectExact('csv import');
  });

  it('filters on other columns and the quick search still read the plan table', () => {
    const q = { filters: [text('family', 'contains', 'fam'), set('language', ['zh'])], limit: 1000 };
    expect(pagedValues(rd, SLOT_TABLE, 'difficulty', q)).toEqual(
      pagedValues(rd, SLOT_TABLE, 'difficulty', q, { facets: false }),
    );
    const quick = { filters: [], quick: 'gmail', limit: 1000 };
    expect(pagedValues(rd, SLOT_TABLE, 'language', quick)).toEqual(
      pagedValues(rd, SLOT_TABLE, 'language', quick, { facets: false }),
    );
  });
});
