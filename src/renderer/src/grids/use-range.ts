import type {
  CellFocusedEvent,
  CellKeyDownEvent,
  CellMouseDownEvent,
  CellMouseOverEvent,
  Column,
  GridApi,
} from 'ag-grid-community';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { all, bounds, cellCount, contains, type Bounds, type Range } from './range';

const STEP = { ArrowDown: [1, 0], ArrowUp: [-1, 0], ArrowRight: [0, 1], ArrowLeft: [0, -1] } as const;

/** Columns a range can span: displayed data columns (not the selection checkbox). */
export function rangeColumns(api: GridApi): string[] {
  return api
    .getAllDisplayedColumns()
    .map((c: Column) => c.getColId())
    .filter((id) => !id.startsWith('ag-Grid-'));
}

/**
 * Cell-range selection on ag-grid community (ranges are an Enterprise feature): click-drag, Shift+
 * click and Shift+arrows extend a rectangle from the anchor; a plain focus move starts a new one.
 * The rectangle is drawn with a cell class (`cell-in-range`) from `cellClassRules`.
 */
export function useRange(getApi: () => GridApi | null) {
  const range = useRef<Range | null>(null);
  const dragging = useRef(false);
  const shift = useRef(false);
  const [cells, setCells] = useState(0);

  const redraw = useCallback(() => {
    const api = getApi();
    if (!api) return;
    const b = range.current ? bounds(range.current, rangeColumns(api)) : null;
    setCells(b ? cellCount(b) : 0);
    api.refreshCells({ force: true, suppressFlash: true });
  }, [getApi]);

  const set = useCallback(
    (r: Range | null) => {
      const prev = range.current;
      range.current = r;
      const multi = (x: Range | null) => !!x && (x.anchor.row !== x.focus.row || x.anchor.col !== x.focus.col);
      // Redraw only when a rectangle appears, changes or goes: a plain click stays as cheap as before.
      if (multi(prev) || multi(r)) redraw();
      else setCells(r ? 1 : 0);
    },
    [redraw],
  );

  useEffect(() => {
    const up = () => (dragging.current = false);
    const keys = (e: KeyboardEvent) => (shift.current = e.shiftKey);
    document.addEventListener('mouseup', up);
    document.addEventListener('keydown', keys, true);
    document.addEventListener('keyup', keys, true);
    return () => {
      document.removeEventListener('mouseup', up);
      document.removeEventListener('keydown', keys, true);
      document.removeEventListener('keyup', keys, true);
    };
  }, []);

  const props = useMemo(
    () => ({
      /** Shift+arrow: ag-grid community does not move the focus then, so the range moves it itself. */
      onCellKeyDown: (e: CellKeyDownEvent) => {
        const ev = e.event as KeyboardEvent | undefined;
        const r = range.current;
        if (!ev?.shiftKey || ev.ctrlKey || ev.metaKey || !(ev.key in STEP) || !r || e.api.getEditingCells().length)
          return;
        const cols = rangeColumns(e.api);
        const [dr, dc] = STEP[ev.key as keyof typeof STEP];
        const row = Math.min(Math.max(0, r.focus.row + dr), e.api.getDisplayedRowCount() - 1);
        const col = cols[Math.min(Math.max(0, cols.indexOf(r.focus.col) + dc), cols.length - 1)]!;
        ev.preventDefault();
        set({ anchor: r.anchor, focus: { row, col } });
        e.api.ensureIndexVisible(row);
      },
      onCellMouseDown: (e: CellMouseDownEvent) => {
        const ev = e.event as MouseEvent | undefined;
        if (e.rowIndex === null || (ev && ev.button !== 0)) return;
        const pos = { row: e.rowIndex, col: e.column.getColId() };
        if (pos.col.startsWith('ag-Grid-')) return;
        dragging.current = true;
        set(ev?.shiftKey && range.current ? { anchor: range.current.anchor, focus: pos } : { anchor: pos, focus: pos });
      },
      onCellMouseOver: (e: CellMouseOverEvent) => {
        if (!dragging.current || !range.current || e.rowIndex === null) return;
        set({ anchor: range.current.anchor, focus: { row: e.rowIndex, col: e.column.getColId() } });
      },
      onCellFocused: (e: CellFocusedEvent) => {
        if (e.rowIndex === null || e.rowIndex === undefined || !e.column || typeof e.column === 'string') return;
        const pos = { row: e.rowIndex, col: (e.column as Column).getColId() };
        if (pos.col.startsWith('ag-Grid-') || dragging.current) return;
        if (shift.current && range.current) set({ anchor: range.current.anchor, focus: pos });
        else if (range.current?.focus.row !== pos.row || range.current.focus.col !== pos.col || !range.current)
          set({ anchor: pos, focus: pos });
      },
    }),
    [set],
  );

  const classRules = useMemo(
    () => ({
      'cell-in-range': (p: { node: { rowIndex: number | null }; column: Column; api: GridApi }) => {
        const r = range.current;
        if (!r || p.node.rowIndex === null) return false;
        if (r.anchor.row === r.focus.row && r.anchor.col === r.focus.col) return false;
        return contains(bounds(r, rangeColumns(p.api)), p.node.rowIndex, p.column.getColId());
      },
    }),
    [],
  );

  return {
    props,
    classRules,
    /** Selected cells (0, 1 = the focused cell, more = a rectangle). */
    cells,
    bounds(): Bounds | null {
      const api = getApi();
      return api && range.current ? bounds(range.current, rangeColumns(api)) : null;
    },
    /** Ctrl+A: every row and column. */
    selectAll(rows: number) {
      const api = getApi();
      if (api) set(all(rows, rangeColumns(api)));
    },
    clear: () => set(null),
  };
}
export type RangeControl = ReturnType<typeof useRange>;
