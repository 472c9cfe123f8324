import { describe, expect, it } from 'vitest';
import { contract } from '../../src/shared/contract';
import { cellText, rangeTsv } from '../../src/renderer/src/grids/clipboard';
import { loadGridState, saveGridState, stateKey } from '../../src/renderer/src/grids/grid-state';
import { anyField, toGridFilter } from '../../src/renderer/src/grids/grid-query';
import { matchHeader, rowLabel } from '../../src/renderer/src/grids/paste-header';
import { all, bounds, cellCount, contains, fillDown, isMulti } from '../../src/renderer/src/grids/range';

const COLS = ['id', 'family', 'services', 'difficulty'];

describe('range', () => {
  it('spans anchor to focus in any direction, in display order', () => {
    const b = bounds({ anchor: { row: 5, col: 'difficulty' }, focus: { row: 2, col: 'family' } }, COLS);
    expect(b).toEqual({ top: 2, bottom: 5, cols: ['family', 'services', 'difficulty'] });
    expect(cellCount(b)).toBe(12);
    expect(contains(b, 3, 'services')).toBe(true);
    expect(contains(b, 6, 'services')).toBe(false);
    expect(contains(b, 3, 'id')).toBe(false);
    expect(isMulti(bounds({ anchor: { row: 1, col: 'id' }, focus: { row: 1, col: 'id' } }, COLS))).toBe(false);
    expect(all(0, COLS)).toBeNull();
    expect(bounds(all(10, COLS)!, COLS)).toEqual({ top: 0, bottom: 9, cols: COLS });
  });
  it('fills each column down from the range’s top row, leaving cells that already hold it', () => {
    const data = [
      { family: 'a', difficulty: 'easy' },
      { family: 'b', difficulty: 'easy' },
      { family: 'a', difficulty: 'hard' },
    ];
    const b = { top: 0, bottom: 2, cols: ['family', 'difficulty'] };
    expect(fillDown(b, (r, c) => (data[r] as Record<string, string>)[c])).toEqual([
      { row: 1, col: 'family', value: 'a' },
      { row: 2, col: 'difficulty', value: 'easy' },
    ]);
  });
  it('copies a range as TSV cells (lists as "a, b", quoting what needs it)', () => {
    const rows = [
      { family: 'x', services: ['gmail', 'kb'] },
      { family: 'tab\there', services: [] },
    ];
    const b = { top: 0, bottom: 1, cols: ['family', 'services'] };
    expect(rangeTsv(b, rows, (r, c) => cellText((r as Record<string, unknown>)[c]))).toBe(
      'x\tgmail, kb\n"tab\there"\t',
    );
  });
});

describe('saved grid state', () => {
  it('is kept per workspace and grid, without the selection; damaged entries are ignored', () => {
    const mem = new Map<string, string>();
    const store = { getItem: (k: string) => mem.get(k) ?? null, setItem: (k: string, v: string) => void mem.set(k, v) };
    saveGridState(
      '/a.db',
      'plan',
      { grid: { sort: { sortModel: [{ colId: 'id', sort: 'desc' }] }, rowSelection: ['1'] } as never, quick: 'kb' },
      store,
    );
    expect(loadGridState('/a.db', 'plan', store)).toEqual({
      grid: { sort: { sortModel: [{ colId: 'id', sort: 'desc' }] } },
      quick: 'kb',
    });
    expect(loadGridState('/b.db', 'plan', store)).toEqual({});
    mem.set(stateKey('/c.db', 'plan'), '{not json');
    expect(loadGridState('/c.db', 'plan', store)).toEqual({});
  });
});

describe('filters and paste headers', () => {
  it('maps the set filter to `in` and keeps the quick search', () => {
    const f = toGridFilter({ services: { filterType: 'set', values: ['gmail', ''] } }, '  kb ', anyField);
    expect(f).toEqual({
      filters: [{ field: 'services', operator: 'AND', conditions: [{ op: 'in', values: ['gmail', ''] }] }],
      quick: 'kb',
    });
    expect(contract['plan.list'].input.safeParse({ ...f, offset: 0, limit: 100 }).success).toBe(true);
  });
  it('takes a header with one unknown column, naming it; plain data is not a header', () => {
    const known = (h: string) => (['family', 'category', 'notes'].includes(h) ? h : undefined);
    expect(matchHeader(['family', 'category', 'Owner'], known)).toEqual({
      fields: ['family', 'category', undefined],
      unknown: [{ column: 3, name: 'Owner' }],
    });
    expect(matchHeader(['kb-search', 'knowledge', 'x'], known)).toBeNull();
    expect(rowLabel(0, true)).toBe('row 2');
    expect(rowLabel(0, false)).toBe('row 1');
  });
});
