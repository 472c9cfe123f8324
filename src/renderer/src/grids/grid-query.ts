import type { FilterCondition } from '../../../shared/contract/entities/grid-query';

type AgSimple = {
  filterType?: string;
  type?: string;
  filter?: string | number | null;
  filterTo?: string | number | null;
  dateFrom?: string | null;
  dateTo?: string | null;
  /** Our set filter (SetFilter.tsx): the checked values. */
  values?: (string | number)[];
};
type AgFilter = AgSimple & { operator?: 'AND' | 'OR'; conditions?: AgSimple[] };
export type AgFilterModel = Record<string, AgFilter> | null;

const toCondition = (f: AgSimple): FilterCondition => {
  if (f.filterType === 'set') return { op: 'in', values: f.values ?? [] };
  const date = (d?: string | null) => (d ? d.slice(0, 10) : undefined);
  const value = f.filterType === 'date' ? date(f.dateFrom) : (f.filter ?? undefined);
  const valueTo = f.filterType === 'date' ? date(f.dateTo) : (f.filterTo ?? undefined);
  return {
    op: f.type as FilterCondition['op'],
    ...(value !== undefined ? { value } : {}),
    ...(valueTo !== undefined ? { valueTo } : {}),
  };
};

/** The contract's grid filter, its field names typed by the grid's procedure (`F`: its field enum). */
export type GridFilter<F extends string = string> = {
  filters: { field: F; operator: 'AND' | 'OR'; conditions: FilterCondition[] }[];
  quick?: string;
};
export type PageQuery<F extends string = string> = GridFilter<F> & {
  offset: number;
  limit: number;
  sort: { field: F; dir: 'asc' | 'desc' }[];
};
/** Maps an ag-grid column id to the procedure's field it sorts or filters (undefined: none). */
export type FieldOf<F extends string> = (colId: string) => F | undefined;
/** For callers with no procedure to check against (a saved layout read back as a plain filter). */
export const anyField: FieldOf<string> = (colId) => colId;

const fieldNamed = <F extends string>(fieldOf: FieldOf<F>, colId: string): F => {
  const f = fieldOf(colId);
  if (f === undefined) throw new Error(`column "${colId}" is not a field this grid can sort or filter on`);
  return f;
};

/** ag-grid's filter model (+ the quick search) → the contract's filter: what "rows matching the filter" means. */
export function toGridFilter<F extends string>(
  filterModel: AgFilterModel,
  quick: string | undefined,
  fieldOf: FieldOf<F>,
): GridFilter<F> {
  return {
    filters: Object.entries(filterModel ?? {}).map(([colId, f]) => ({
      field: fieldNamed(fieldOf, colId),
      operator: f.operator ?? 'AND',
      conditions: (f.conditions ?? [f]).map(toCondition),
    })),
    ...(quick?.trim() ? { quick: quick.trim() } : {}),
  };
}

/** ag-grid's sort and filter models → the contract's page query (the core turns it into SQL). */
export function toPageQuery<F extends string>(
  startRow: number,
  endRow: number,
  sortModel: { colId: string; sort: 'asc' | 'desc' }[],
  filterModel: AgFilterModel,
  quick: string | undefined,
  fieldOf: FieldOf<F>,
): PageQuery<F> {
  return {
    offset: startRow,
    limit: endRow - startRow,
    sort: sortModel.map((s) => ({ field: fieldNamed(fieldOf, s.colId), dir: s.sort })),
    ...toGridFilter(filterModel, quick, fieldOf),
  };
}
