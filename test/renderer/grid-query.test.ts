import { describe, expect, it } from 'vitest';
import { contract } from '../../src/shared/contract';
import { anyField, toPageQuery } from '../../src/renderer/src/grids/grid-query';

describe("ag-grid's models → plan.list input", () => {
  it('maps block bounds, sort and simple filters one to one', () => {
    const q = toPageQuery(
      200,
      300,
      [{ colId: 'reference_date', sort: 'desc' }],
      {
        services: { filterType: 'text', type: 'contains', filter: 'gmail' },
        target_count: { filterType: 'number', type: 'inRange', filter: 2, filterTo: 8 },
      },
      undefined,
      anyField,
    );
    expect(q).toEqual({
      offset: 200,
      limit: 100,
      sort: [{ field: 'reference_date', dir: 'desc' }],
      filters: [
        { field: 'services', operator: 'AND', conditions: [{ op: 'contains', value: 'gmail' }] },
        { field: 'target_count', operator: 'AND', conditions: [{ op: 'inRange', value: 2, valueTo: 8 }] },
      ],
    });
    expect(contract['plan.list'].input.safeParse(q).success).toBe(true);
  });
  it('keeps combined conditions and trims date filters to the day', () => {
    const q = toPageQuery(
      0,
      100,
      [],
      {
        reference_date: {
          filterType: 'date',
          operator: 'OR',
          conditions: [
            { filterType: 'date', type: 'lessThan', dateFrom: '2026-02-01 00:00:00' },
            { filterType: 'date', type: 'greaterThan', dateFrom: '2026-05-01 00:00:00' },
          ],
        },
      },
      undefined,
      anyField,
    );
    expect(q.filters).toEqual([
      {
        field: 'reference_date',
        operator: 'OR',
        conditions: [
          { op: 'lessThan', value: '2026-02-01' },
          { op: 'greaterThan', value: '2026-05-01' },
        ],
      },
    ]);
    expect(contract['plan.list'].input.safeParse(q).success).toBe(true);
  });
  it('a blank filter carries no value', () => {
    expect(
      toPageQuery(0, 100, [], { notes: { filterType: 'text', type: 'blank' } }, undefined, anyField).filters[0]!
        .conditions,
    ).toEqual([{ op: 'blank' }]);
  });
});
