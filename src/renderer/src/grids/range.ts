/**
 * A rectangular cell range over a grid's displayed rows and columns: the anchor (where the
 * selection started) and the focus (where it ends, following the mouse or Shift+arrows). Pure, so
 * the range logic is unit-tested without a browser; use-range.ts wires it to ag-grid.
 */
export type CellPos = { row: number; col: string };
export type Range = { anchor: CellPos; focus: CellPos };
export type Bounds = { top: number; bottom: number; cols: string[] };

/** The range's rows (inclusive) and columns in display order. */
export function bounds(r: Range, columns: readonly string[]): Bounds {
  const a = columns.indexOf(r.anchor.col);
  const f = columns.indexOf(r.focus.col);
  const [from, to] = a < 0 || f < 0 ? [Math.max(a, f), Math.max(a, f)] : [Math.min(a, f), Math.max(a, f)];
  return {
    top: Math.min(r.anchor.row, r.focus.row),
    bottom: Math.max(r.anchor.row, r.focus.row),
    cols: from < 0 ? [] : columns.slice(from, to + 1),
  };
}

export function contains(b: Bounds, row: number, col: string): boolean {
  return row >= b.top && row <= b.bottom && b.cols.includes(col);
}

/** Cells in the range (for the status bar). */
export const cellCount = (b: Bounds) => (b.bottom - b.top + 1) * b.cols.length;

/** More than one cell: the range, not the focused cell, is what copy and fill act on. */
export const isMulti = (b: Bounds) => cellCount(b) > 1;

/** Every row and column: Ctrl+A. */
export function all(rows: number, columns: readonly string[]): Range | null {
  if (!rows || !columns.length) return null;
  return { anchor: { row: 0, col: columns[0]! }, focus: { row: rows - 1, col: columns.at(-1)! } };
}

/**
 * Fill down: for each column of the range, the top row's value goes into every row below it in
 * the range (Excel's Ctrl+D). Answers the cells to write; cells that already hold it are left out.
 */
export function fillDown<T>(
  b: Bounds,
  valueAt: (row: number, col: string) => T | undefined,
  same: (a: T, b: T) => boolean = (x, y) => JSON.stringify(x) === JSON.stringify(y),
): { row: number; col: string; value: T }[] {
  const out: { row: number; col: string; value: T }[] = [];
  for (const col of b.cols) {
    const top = valueAt(b.top, col);
    if (top === undefined) continue;
    for (let row = b.top + 1; row <= b.bottom; row++) {
      const v = valueAt(row, col);
      if (v === undefined || !same(v, top)) out.push({ row, col, value: top });
    }
  }
  return out;
}
