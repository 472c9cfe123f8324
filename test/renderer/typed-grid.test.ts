import { describe, expect, it } from 'vitest';
import { contract } from '../../src/shared/contract';
import { TASK_COLUMNS } from '../../src/renderer/src/grids/tasks.columns';
import { TRAJECTORY_GRID_COLUMNS } from '../../src/renderer/src/grids/trajectories.columns';
import { CURATION_COLUMNS, LOG_COLUMNS, TASK_TRAJECTORY_COLUMNS } from '../../src/renderer/src/grids/curation.columns';
import { planColumns } from '../../src/renderer/src/grids/plan.columns';
import { gridFields } from '../../src/renderer/src/grids/grid-types';
import { toPageQuery } from '../../src/renderer/src/grids/grid-query';

/** The procedure each column set pages through, and its sort/filter field enum at run time. */
const GRIDS = [
  ['tasks.list', TASK_COLUMNS],
  ['trajectories.list', TRAJECTORY_GRID_COLUMNS],
  ['trajectories.list', TASK_TRAJECTORY_COLUMNS],
  ['curation.tasks', CURATION_COLUMNS],
  ['curation.log', LOG_COLUMNS],
  ['plan.list', planColumns(() => undefined)],
] as const;

describe('procedure-typed grids', () => {
  it.each(GRIDS)(
    'every sortable or filterable column of the %s grid is a field its procedure accepts',
    (name, cols) => {
      const fields = [...gridFields(cols as never).values()];
      expect(fields.length).toBeGreaterThan(3);
      for (const field of fields) {
        const q = { sort: [{ field, dir: 'asc' }], filters: [{ field, conditions: [{ op: 'blank' }] }] };
        const r = contract[name].input.safeParse(q);
        expect(r.success, `${name}: ${field}`).toBe(true);
      }
    },
  );
  it('a column that is not sortable nor filterable names no field', () => {
    const fields = gridFields(TASK_COLUMNS);
    expect(fields.has('tools')).toBe(false);
    expect(fields.has('checks_origin')).toBe(false);
    expect(fields.get('task_id')).toBe('task_id');
  });
  it('a sort or filter on a column the procedure does not know is refused, naming the column', () => {
    const fields = gridFields(TASK_COLUMNS);
    const fieldOf = (c: string) => fields.get(c);
    expect(() => toPageQuery(0, 100, [{ colId: 'tools', sort: 'asc' }], null, undefined, fieldOf)).toThrow(
      /column "tools" is not a field/,
    );
    expect(() => toPageQuery(0, 100, [], { nope: { filterType: 'text', type: 'blank' } }, undefined, fieldOf)).toThrow(
      /column "nope"/,
    );
    expect(toPageQuery(0, 100, [{ colId: 'name', sort: 'desc' }], null, ' x ', fieldOf)).toEqual({
      offset: 0,
      limit: 100,
      sort: [{ field: 'name', dir: 'desc' }],
      filters: [],
      quick: 'x',
    });
  });
});
