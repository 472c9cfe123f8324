/**
 * Compile-time checks of the typed renderer data layer, run by `tsc -b` (test/tsconfig.json includes
 * this file): each `@ts-expect-error` line must fail to compile, so a change that loosens the types
 * (a wrong column field, a wrong procedure input accepted) fails the build.
 */
import { call } from '../../src/renderer/src/api/client';
import type { GridColumn, ListFilter } from '../../src/renderer/src/grids/grid-types';
import type { ServerGridOptions } from '../../src/renderer/src/grids/use-server-grid';

export const columns: GridColumn<'trajectories.list'>[] = [
  { field: 'score', headerName: 'Score' },
  // A row field the procedure cannot sort on is fine when the column says so.
  { field: 'warnings', sortable: false, filter: false },
  // @ts-expect-error: not a field of the trajectories row
  { field: 'no_such_field' },
];
// @ts-expect-error: a task column on the trajectories grid
export const wrongGrid: GridColumn<'trajectories.list'>[] = [{ field: 'validation_status' }];
// @ts-expect-error: 'tools' is a task row field, but tasks.list cannot sort or filter on it
export const unsortable: GridColumn<'tasks.list'>[] = [{ field: 'tools' }];

export const inputs = [
  () => call('trajectories.collections'),
  () => call('endpoints.list'),
  () => call('tasks.list', { sort: [{ field: 'task_id', dir: 'asc' }] }),
  // @ts-expect-error: tasks.list cannot sort on tools
  () => call('tasks.list', { sort: [{ field: 'tools', dir: 'asc' }] }),
  // @ts-expect-error: tasks.get needs a taskId
  () => call('tasks.get', {}),
  // @ts-expect-error: no such procedure
  () => call('tasks.nope', {}),
];

export const filter: ListFilter<'plan.list'> = {
  // @ts-expect-error: plan.list filters on slot fields only
  filters: [{ field: 'task_id', operator: 'AND', conditions: [{ op: 'blank' }] }],
};

export const grid: Pick<ServerGridOptions<'tasks.list', string>, 'rowId' | 'list'> = {
  rowId: (row) => row.task_id,
  // @ts-expect-error: a tasks grid pages through tasks.list, not trajectories.list
  list: (q) => call('trajectories.list', q),
};
