import type { GridColumn } from './grid-types';
import { SetFilter } from './SetFilter';

const text = { filter: 'agTextColumnFilter', filterParams: { buttons: ['reset'], debounceMs: 250 } };
const num = { filter: 'agNumberColumnFilter', filterParams: { buttons: ['reset'] } };
const set = { filter: SetFilter };
const fixed = (digits: number) => (p: { value?: unknown }) =>
  typeof p.value === 'number' ? p.value.toFixed(digits) : p.value === null ? '—' : '';
const bucketClass = (p: { value?: unknown }) => (typeof p.value === 'string' ? `bucket-cell bucket-${p.value}` : '');

/** Curation grid columns; sorts and filters run in SQL over curation_grid (migration 0011). */
export const CURATION_COLUMNS: GridColumn<'curation.tasks'>[] = [
  { field: 'task_id', headerName: 'Task', width: 200, pinned: 'left', ...text },
  {
    field: 'task_source',
    headerName: 'Source',
    headerTooltip: 'Benchmark and domain the task id belongs to (τ-bench, τ²-bench); blank for workspace tasks',
    width: 130,
    ...set,
  },
  { field: 'bucket', headerName: 'Assigned', width: 115, cellClass: bucketClass, ...set },
  { field: 'suggested', headerName: 'Suggested', width: 115, cellClass: bucketClass, ...set },
  {
    field: 'mean_completion',
    headerName: 'Mean completion',
    headerTooltip:
      'Mean of fractional values over attempts (completion, else the source completion, else the reward): ' +
      'not a success rate',
    width: 140,
    sort: 'asc',
    valueFormatter: fixed(3),
    ...num,
  },
  { field: 'attempts', headerName: 'Attempts', width: 100, ...num },
  { field: 'scored', headerName: 'Scored', width: 90, headerTooltip: 'Attempts with a usable value', ...num },
  { field: 'variance', headerName: 'Variance', width: 100, valueFormatter: fixed(4), ...num },
  { field: 'min_completion', headerName: 'Worst', width: 85, valueFormatter: fixed(3), ...num },
  { field: 'best_completion', headerName: 'Best', width: 85, valueFormatter: fixed(3), ...num },
  { field: 'best_trial', headerName: 'Best trial', width: 95, ...num },
  { field: 'mean_score', headerName: 'Mean score', width: 110, valueFormatter: fixed(3), ...num },
  { field: 'passes', headerName: 'Passes', width: 90, ...num },
  {
    field: 'pass_at_k',
    headerName: 'Pass@k',
    headerTooltip: "Unbiased pass@k, k from the pool's rule",
    width: 95,
    valueFormatter: fixed(3),
    ...num,
  },
  {
    field: 'pass_hat_k',
    headerName: 'Pass^k (comb.)',
    headerTooltip: 'Combinatorial pass^k = C(c,k)/C(n,k) (τ-bench); — when fewer than k attempts',
    width: 125,
    valueFormatter: fixed(3),
    ...num,
  },
  { field: 'pool', headerName: 'Pool', width: 110, ...set },
  { field: 'category', headerName: 'Category', width: 125, ...set },
  { field: 'language', headerName: 'Lang', width: 80, ...set },
  { field: 'services', headerName: 'Services', width: 180, valueFormatter: (p) => (p.value ?? []).join(', '), ...set },
  { field: 'name', headerName: 'Name', width: 220, ...text },
];

/** The selected task's trajectories (a filter on task_id is added by the page). */
export const TASK_TRAJECTORY_COLUMNS: GridColumn<'trajectories.list'>[] = [
  { field: 'id', headerName: '#', width: 90, pinned: 'left', ...num },
  { field: 'trial', headerName: 'Trial', width: 80, sort: 'asc', ...num },
  { field: 'include_override', headerName: 'Override', width: 110, filter: false },
  { field: 'completion', headerName: 'Completion', width: 115, valueFormatter: fixed(3), ...num },
  { field: 'source_completion', headerName: 'Source compl.', width: 120, valueFormatter: fixed(3), ...num },
  { field: 'source_reward', headerName: 'Reward', width: 95, valueFormatter: fixed(3), ...num },
  { field: 'score', headerName: 'Score', width: 90, valueFormatter: fixed(3), ...num },
  { field: 'passed', headerName: 'Passed', width: 90, filter: false },
  { field: 'valid', headerName: 'Valid', width: 80, filter: false },
  { field: 'superseded', headerName: 'Superseded', width: 110, filter: false },
  { field: 'model', headerName: 'Model', width: 150, filter: false },
  { field: 'collection', headerName: 'Collection', width: 150, filter: false },
  { field: 'message_count', headerName: 'Messages', width: 100, ...num },
];

export const LOG_COLUMNS: GridColumn<'curation.log'>[] = [
  { field: 'id', headerName: 'Batch', width: 85, sort: 'desc', ...num },
  { field: 'at', headerName: 'When', width: 200, ...text },
  { field: 'who', headerName: 'Who', width: 110, filter: false },
  { field: 'kind', headerName: 'Action', width: 95, filter: false },
  { field: 'target', headerName: 'Of', width: 90, filter: false },
  { field: 'value', headerName: 'Value', width: 110, valueFormatter: (p) => p.value ?? '(per item)', filter: false },
  { field: 'changed', headerName: 'Changed', width: 95, ...num },
  { field: 'reason', headerName: 'Why', width: 260, ...text },
  {
    colId: 'selection',
    headerName: 'Selection / filter',
    width: 320,
    sortable: false,
    filter: false,
    valueGetter: (p) => (p.data ? JSON.stringify(p.data.selection) : ''),
  },
  {
    colId: 'state',
    headerName: 'State',
    width: 140,
    sortable: false,
    filter: false,
    valueGetter: (p) =>
      p.data?.undone_by ? `undone by #${p.data.undone_by}` : p.data?.of_batch ? `acts on #${p.data.of_batch}` : '',
  },
];
