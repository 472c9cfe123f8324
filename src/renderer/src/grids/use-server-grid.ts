import type { GridApi, GridReadyEvent, IDatasource, StateUpdatedEvent } from 'ag-grid-community';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ValuesOutput } from '../../../shared/contract/entities/grid-query';
import { errorText } from '../api/client';
import { whenStale } from '../api/live-query';
import { tableChanges } from '../api/use-live-query';
import { loadGridState, saveGridState } from './grid-state';
import { toGridFilter, toPageQuery, type AgFilterModel, type GridFilter, type PageQuery } from './grid-query';
import { gridFields, type GridColumn, type GridField, type GridRow, type ListName } from './grid-types';
import { useRange } from './use-range';

export type { GridFilter, PageQuery };
type Page<Row> = { rows: Row[]; total: number; unfiltered?: number | undefined };

export type ServerGridOptions<N extends ListName, Id extends string | number> = {
  /**
   * The list procedure the grid pages through: it types the rows, the fields the columns sort and
   * filter on, and (through the contract's WATCHES) which changes refetch the visible rows.
   */
  procedure: N;
  /** The grid's columns: their fields are the only ones a sort or filter may name. */
  columns: readonly GridColumn<N>[];
  /** Names this grid's saved layout (per workspace) and its undo stack. */
  gridId: string;
  /** The workspace file: layouts are kept per workspace. */
  workspace: string;
  rowId(row: GridRow<N>): Id;
  list(q: PageQuery<GridField<N>>): Promise<Page<GridRow<N>>>;
  /** The set filter's list for a column (under the other filters). */
  values?(field: GridField<N>, f: GridFilter<GridField<N>>): Promise<ValuesOutput>;
  /** Every id matching the filter (select all matching). */
  ids?(f: GridFilter<GridField<N>>): Promise<{ ids: Id[]; total: number }>;
  onError(text: string): void;
};

/**
 * The data half of every server-side grid (plan, tasks; trajectories and curation next): an
 * infinite-row-model datasource over a `<area>.list` procedure with sort, filters and quick search
 * in SQL; live refetch on `table.changed` (deferred while a cell is being edited); the layout kept
 * per workspace; counts for the status bar; selection that can hold every row matching the filter;
 * and cell-range selection. Spread `gridProps` into <AgGridReact>.
 */
export function useServerGrid<N extends ListName, Id extends string | number>(o: ServerGridOptions<N, Id>) {
  type Row = GridRow<N>;
  const opts = useRef(o);
  opts.current = o;
  const apiRef = useRef<GridApi<Row> | null>(null);
  const saved = useMemo(() => loadGridState(o.workspace, o.gridId), [o.workspace, o.gridId]);
  const quickRef = useRef(saved.quick ?? '');
  const [quick, setQuickState] = useState(quickRef.current);
  const [counts, setCounts] = useState<{ total: number | null; unfiltered: number | null }>({
    total: null,
    unfiltered: null,
  });
  const selected = useRef(new Set<Id>());
  const [selectedCount, setSelectedCount] = useState(0);
  const syncing = useRef(false);
  const pendingRefresh = useRef(false);
  const getApi = useCallback(() => (apiRef.current?.isDestroyed() ? null : (apiRef.current as GridApi | null)), []);
  const range = useRange(getApi);
  // Stable across renders (the datasource depends on it); rebuilt only when the columns array changes.
  const fields = useRef<{ of: readonly GridColumn<N>[]; map: Map<string, GridField<N>> } | null>(null);
  const fieldOf = useCallback((colId: string) => {
    const columns = opts.current.columns;
    if (fields.current?.of !== columns) fields.current = { of: columns, map: gridFields(columns) };
    return fields.current.map.get(colId);
  }, []);

  const filter = useCallback(
    (): GridFilter<GridField<N>> =>
      toGridFilter((apiRef.current?.getFilterModel() ?? null) as AgFilterModel, quickRef.current, fieldOf),
    [fieldOf],
  );

  /** Loaded rows whose id is in our selection are ticked (a block may arrive after "select all matching"). */
  const tickLoaded = useCallback(() => {
    const api = apiRef.current;
    if (!api) return;
    syncing.current = true;
    api.forEachNode((n) => {
      if (!n.data) return;
      const want = selected.current.has(opts.current.rowId(n.data));
      if (n.isSelected() !== want) n.setSelected(want);
    });
    syncing.current = false;
  }, []);

  const datasource = useMemo<IDatasource>(
    () => ({
      getRows(p) {
        // A sort or filter on a column the procedure does not know is refused here, before any query.
        const loaded = Promise.resolve().then(() =>
          opts.current.list(
            toPageQuery(
              p.startRow,
              p.endRow,
              p.sortModel as { colId: string; sort: 'asc' | 'desc' }[],
              p.filterModel as AgFilterModel,
              quickRef.current,
              fieldOf,
            ),
          ),
        );
        loaded.then(
          (r) => {
            setCounts((c) => ({ total: r.total, unfiltered: r.unfiltered ?? c.unfiltered }));
            p.successCallback(r.rows, r.total);
            if (selected.current.size) queueMicrotask(tickLoaded);
          },
          (err) => {
            opts.current.onError(`Could not load rows: ${errorText(err)}`);
            p.failCallback();
          },
        );
      },
    }),
    [tickLoaded, fieldOf],
  );

  const refresh = useCallback(() => {
    const api = apiRef.current;
    // A change can arrive while the page is being left: a destroyed grid answers undefined to everything.
    if (!api || api.isDestroyed()) return;
    if (api.getEditingCells().length) pendingRefresh.current = true;
    else api.refreshInfiniteCache();
  }, []);

  // Live updates: edits from the CLI, another window or a job refetch the visible block.
  useEffect(() => whenStale([o.procedure], tableChanges, refresh, 80), [o.procedure, refresh]);

  const save = useCallback((grid?: StateUpdatedEvent['state']) => {
    const prev = loadGridState(opts.current.workspace, opts.current.gridId);
    saveGridState(opts.current.workspace, opts.current.gridId, { grid: grid ?? prev.grid, quick: quickRef.current });
  }, []);

  const setQuick = useCallback(
    (text: string) => {
      quickRef.current = text;
      setQuickState(text);
      save();
      apiRef.current?.purgeInfiniteCache();
    },
    [save],
  );

  const setSelection = useCallback(
    (ids: Iterable<Id>) => {
      selected.current = new Set(ids);
      setSelectedCount(selected.current.size);
      tickLoaded();
    },
    [tickLoaded],
  );

  const gridProps = {
    rowModelType: 'infinite' as const,
    datasource,
    cacheBlockSize: 100,
    maxBlocksInCache: 50,
    getRowId: (p: { data: Row }) => String(opts.current.rowId(p.data)),
    initialState: saved.grid,
    onStateUpdated: (e: StateUpdatedEvent<Row>) => save(e.state),
    context: {
      values: async (colId: string): Promise<ValuesOutput> => {
        const field = fieldOf(colId);
        if (field === undefined) throw new Error(`column "${colId}" is not a field this grid can filter on`);
        return opts.current.values ? opts.current.values(field, filter()) : { values: [], truncated: false };
      },
    },
    onGridReady: (e: GridReadyEvent<Row>) => {
      apiRef.current = e.api;
    },
    onSelectionChanged: (e: { api: GridApi<Row>; source: string }) => {
      if (syncing.current) return;
      // ag-grid knows the loaded rows only: update those in our set, keep the rest.
      e.api.forEachNode((n) => {
        if (!n.data) return;
        const id = opts.current.rowId(n.data);
        if (n.isSelected()) selected.current.add(id);
        else selected.current.delete(id);
      });
      setSelectedCount(selected.current.size);
    },
    onCellEditingStopped: () => {
      if (pendingRefresh.current) (pendingRefresh.current = false), apiRef.current?.refreshInfiniteCache();
    },
    onFilterChanged: () => setCounts((c) => ({ ...c, total: null })),
    ...range.props,
  };

  return {
    gridProps,
    api: () => (apiRef.current?.isDestroyed() ? null : apiRef.current),
    range,
    total: counts.total,
    unfiltered: counts.unfiltered,
    quick,
    setQuick,
    refresh,
    filter,
    filtered: () => filter().filters.length > 0 || !!filter().quick,
    selectedIds: () => [...selected.current],
    selectedCount,
    setSelection,
    clearSelection: () => {
      setSelection([]);
      apiRef.current?.deselectAll();
    },
    /** Selects every row matching the current filter (ids from SQL; rows tick as their blocks load). */
    async selectAllMatching(): Promise<number> {
      const ids = opts.current.ids;
      if (!ids) return 0;
      const r = await ids(filter());
      setSelection(r.ids);
      return r.ids.length;
    },
    /** Rows [from, to] if every one is loaded in the grid's cache (a copy can then answer at once), else null. */
    loadedRows(from: number, to: number): Row[] | null {
      const api = apiRef.current;
      const out: Row[] = [];
      for (let i = from; i <= to; i++) {
        const d = api?.getDisplayedRowAtIndex(i)?.data;
        if (!d) return null;
        out.push(d);
      }
      return out;
    },
    /** Rows [from, to] as the grid shows them now (sort, filters, quick search), for a range copy or fill. */
    async rowsAt(from: number, to: number): Promise<Row[]> {
      const api = apiRef.current;
      const loaded = this.loadedRows(from, to);
      if (loaded) return loaded;
      const sort = (api?.getColumnState() ?? [])
        .filter((c) => c.sort)
        .sort((a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0))
        .map((c) => ({ colId: c.colId, sort: c.sort as 'asc' | 'desc' }));
      const rows: Row[] = [];
      for (let at = from; at <= to; at += 5000) {
        const q = toPageQuery(
          at,
          Math.min(to + 1, at + 5000),
          sort,
          (api?.getFilterModel() ?? null) as AgFilterModel,
          quickRef.current,
          fieldOf,
        );
        rows.push(...(await opts.current.list(q)).rows);
      }
      return rows;
    },
  };
}
export type ServerGrid<N extends ListName, Id extends string | number> = ReturnType<typeof useServerGrid<N, Id>>;
