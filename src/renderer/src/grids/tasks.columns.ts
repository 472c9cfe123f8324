import type { GridColumn } from './grid-types';
import { SetFilter } from './SetFilter';

const text = { filter: 'agTextColumnFilter', filterParams: { buttons: ['reset'], debounceMs: 250 } };
const list = (p: { value?: unknown }) => (Array.isArray(p.value) ? p.value.join(', ') : '');
/** Few distinct values: a checkbox list with counts (SQL `in`). */
const set = { filter: SetFilter };

/** Tasks grid columns; each sortable/filterable one is indexed (migration 0003). */
export const TASK_COLUMNS: GridColumn<'tasks.list'>[] = [
  { field: 'task_id', headerName: 'Task', width: 260, sort: 'asc', pinned: 'left', ...text },
  {
    field: 'validation_status',
    headerName: 'Validation',
    width: 125,
    ...set,
    cellClass: (p: { value?: string | null }) => (p.value ? `status-cell status-${p.value}` : ''),
  },
  { field: 'failed_validator', headerName: 'Failed validator', width: 150, ...set },
  {
    colId: 'checks_origin',
    headerName: 'Checks',
    width: 170,
    sortable: false,
    filter: false,
    headerTooltip:
      "Imported Claw-Eval tasks are graded with checks derived from task.yaml, not with upstream's Python grader",
    valueGetter: (p) => (p.data?.origin === 'imported' ? 'derived from task.yaml' : p.data ? 'authored' : ''),
  },
  { field: 'name', headerName: 'Name', width: 260, ...text },
  { field: 'origin', headerName: 'Origin', width: 105, ...set },
  { field: 'split', headerName: 'Split', width: 105, ...set },
  { field: 'category', headerName: 'Category', width: 125, ...set },
  { field: 'difficulty', headerName: 'Difficulty', width: 105, ...set },
  { field: 'language', headerName: 'Lang', width: 80, ...set },
  { field: 'services', headerName: 'Services', width: 220, valueFormatter: list, ...set },
  {
    field: 'tools',
    headerName: 'Tools',
    width: 90,
    sortable: false,
    filter: false,
    valueFormatter: (p) => String(Array.isArray(p.value) ? p.value.length : ''),
  },
  {
    field: 'warnings',
    headerName: 'Warnings',
    width: 105,
    sortable: false,
    filter: false,
    valueFormatter: (p) => String(Array.isArray(p.value) ? p.value.length : ''),
    cellClass: (p) => (Array.isArray(p.value) && p.value.length ? 'cell-warn' : ''),
  },
  { field: 'version', headerName: 'v', width: 70, filter: 'agNumberColumnFilter' },
];
