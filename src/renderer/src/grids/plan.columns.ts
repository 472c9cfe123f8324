import type { GridColumn } from './grid-types';
import {
  DIFFICULTIES,
  LANGUAGES,
  SCENARIOS,
  SERVICE_IDS,
  type Slot,
  type SlotField,
} from '../../../shared/contract/entities/slot';
import { SelectEditor } from './SelectEditor';
import { SetFilter } from './SetFilter';

const textFilter = { filter: 'agTextColumnFilter', filterParams: { buttons: ['reset'], debounceMs: 250 } };
/** List and enum columns: Excel's checkbox list of values with counts (SQL `in`). */
const setFilter = { filter: SetFilter };
/** A dropdown that takes typing; the values in their declared order. */
const choose = (values: readonly string[]) => ({ cellEditor: SelectEditor, cellEditorParams: { values } });

/** Editable columns in display order: also the order a positional TSV paste fills. */
export const EDITABLE_FIELDS: SlotField[] = [
  'family',
  'services',
  'category',
  'difficulty',
  'language',
  'reference_date',
  'scenario',
  'target_count',
  'notes',
];

export const HEADERS: Record<SlotField | 'id', string> = {
  id: 'id',
  family: 'Family',
  services: 'Services',
  category: 'Category',
  difficulty: 'Difficulty',
  language: 'Language',
  reference_date: 'Reference date',
  scenario: 'Scenario',
  target_count: 'Target',
  notes: 'Notes',
};

/**
 * Column defs of the coverage plan grid. Every sortable/filterable column is indexed in SQL
 * (migration 0001). When adding a column: SlotFields, migration, slots.repo, and here.
 */
export function planColumns(errorAt: (id: number, field: string) => string | undefined): GridColumn<'plan.list'>[] {
  // The invalid-cell mark and its message (as a tooltip) for one editable field.
  const edit = (field: SlotField) => ({
    editable: true,
    cellClassRules: { 'cell-invalid': (p: { data?: Slot }) => !!p.data && !!errorAt(p.data.id, field) },
    tooltipValueGetter: (p: { data?: Slot }) => (p.data ? errorAt(p.data.id, field) : undefined),
  });
  return [
    { field: 'id', headerName: 'id', width: 82, filter: 'agNumberColumnFilter', sort: 'asc', pinned: 'left' },
    { field: 'family', headerName: HEADERS.family, width: 200, pinned: 'left', ...textFilter, ...edit('family') },
    {
      field: 'services',
      headerName: HEADERS.services,
      width: 200,
      ...setFilter,
      ...edit('services'),
      valueFormatter: (p) => (Array.isArray(p.value) ? p.value.join(', ') : String(p.value ?? '')),
      valueParser: (p) => p.newValue,
      headerTooltip: `Comma-separated: ${SERVICE_IDS.join(', ')}`,
    },
    { field: 'category', headerName: HEADERS.category, width: 140, ...textFilter, ...edit('category') },
    {
      field: 'difficulty',
      headerName: HEADERS.difficulty,
      width: 110,
      ...setFilter,
      ...edit('difficulty'),
      ...choose(DIFFICULTIES),
    },
    {
      field: 'language',
      headerName: HEADERS.language,
      width: 105,
      ...setFilter,
      ...edit('language'),
      ...choose(LANGUAGES),
    },
    {
      field: 'reference_date',
      headerName: HEADERS.reference_date,
      width: 140,
      ...edit('reference_date'),
      filter: 'agDateColumnFilter',
      filterParams: { filterOptions: ['equals', 'notEqual', 'lessThan', 'greaterThan', 'inRange'], buttons: ['reset'] },
    },
    {
      field: 'scenario',
      headerName: HEADERS.scenario,
      width: 150,
      ...setFilter,
      ...edit('scenario'),
      ...choose(SCENARIOS),
    },
    // Target and the counts beside it are pinned right: at 1440 px the thirteen columns are wider than the
    // window, and these three are what the plan is read for (issue 21 item 10). Discarded stays in the body.
    {
      field: 'target_count',
      headerName: HEADERS.target_count,
      width: 84,
      pinned: 'right',
      filter: 'agNumberColumnFilter',
      filterParams: { buttons: ['reset'] },
      ...edit('target_count'),
      valueParser: (p) => p.newValue,
    },
    // Generation figures next to the target: SQL aggregates of plan.list, not editable or sortable.
    ...(['generated', 'valid', 'discarded'] as const).map(
      (k): GridColumn<'plan.list'> => ({
        colId: k,
        headerName: k === 'generated' ? 'Generated' : k === 'valid' ? 'Valid' : 'Discarded',
        width: k === 'valid' ? 72 : 100,
        ...(k === 'discarded' ? {} : { pinned: 'right' as const }),
        sortable: false,
        filter: false,
        valueGetter: (p) => p.data?.[k],
        cellClass: k === 'valid' ? 'count-valid' : 'count',
        cellClassRules: { 'below-target': (p) => k === 'valid' && !!p.data && (p.value ?? 0) < p.data.target_count },
      }),
    ),
    {
      field: 'notes',
      headerName: HEADERS.notes,
      flex: 1,
      minWidth: 200,
      sortable: false,
      filter: false,
      ...edit('notes'),
    },
  ];
}
