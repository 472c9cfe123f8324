import type { ColDef } from 'ag-grid-community';
import type { Input, Output, ProcedureName } from '../../../shared/contract';
import type { GridFilter } from './grid-query';

/** The procedures a server-side grid pages through: a page query in (sort + filters), `rows` out. */
export type ListName = {
  [N in ProcedureName]: Output<N> extends { rows: readonly unknown[]; total: number }
    ? 'sort' extends keyof NonNullable<Input<N>>
      ? N
      : never
    : never;
}[ProcedureName];

/** One row of the `N` grid, as the procedure answers it. */
export type GridRow<N extends ListName> = Output<N>['rows'][number];

/** The columns the `N` procedure sorts and filters on (its contract's field enum). */
export type GridField<N extends ListName> = NonNullable<NonNullable<Input<N>>['sort']>[number]['field'];

/** A column the user can sort or filter on: it names a field of the procedure's enum. */
type FieldColumn<N extends ListName> = ColDef<GridRow<N>> & { field?: GridField<N>; colId?: GridField<N> };

/**
 * A column of the `N` grid: `field` is a key of the procedure's row (ag-grid checks that), and a column
 * the user can sort or filter names a field of the contract's enum; a column on anything else (a
 * computed cell, a list shown as a count) says `sortable: false, filter: false`.
 */
export type GridColumn<N extends ListName> = FieldColumn<N> | (ColDef<GridRow<N>> & { sortable: false; filter: false });

/** Sound by the union above: a column that does not opt out of both sorting and filtering is a FieldColumn. */
const sortsOrFilters = <N extends ListName>(c: GridColumn<N>): c is FieldColumn<N> =>
  !(c.sortable === false && c.filter === false);

/** The fields a grid's columns sort and filter on, by column id: how ag-grid's column ids become typed fields. */
export function gridFields<N extends ListName>(columns: readonly GridColumn<N>[]): Map<string, GridField<N>> {
  const out = new Map<string, GridField<N>>();
  for (const c of columns) {
    if (!sortsOrFilters(c)) continue;
    const field = c.colId ?? c.field;
    if (field) out.set(field, field);
  }
  return out;
}

/** The filter of the `N` grid ("rows matching the filter"), as bulk actions and side panels pass it on. */
export type ListFilter<N extends ListName> = GridFilter<GridField<N>>;
