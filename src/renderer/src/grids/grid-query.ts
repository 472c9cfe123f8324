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

/** ag-grid's filter model (+ the quick search) → the contract's filter: what "rows matching the filter" means. */
export function toGridFilter(filterModel: AgFilterModel, quick?: string) {
  return {
    filters: Object.entries(filterModel ?? {}).map(([field, f]) => ({
      field,
      operator: f.operator ?? ('AND' as const),
      conditions: (f.conditions ?? [f]).map(toCondition),
    })),
    ...(quick?.trim() ? { quick: quick.trim() } : {}),
  };
}

/** ag-grid's sort and filter models → the contract's page query (the core turns it into SQL). */
export function toPageQuery(
  startRow: number,
  endRow: number,
  sortModel: { colId: string; sort: 'asc' | 'desc' }[],
  filterModel: AgFilterModel,
  quick?: string,
) {
  return {
    offset: startRow,
    limit: endRow - startRow,
    sort: sortModel.map((s) => ({ field: s.colId, dir: s.sort })),
    ...toGridFilter(filterModel, quick),
  };
}
