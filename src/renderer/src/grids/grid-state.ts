import type { GridState } from 'ag-grid-community';

/**
 * What a grid keeps across reloads, per workspace (two workspaces' plans are different tables):
 * ag-grid's own state (column widths, order, visibility, pinning, sort, filters, scroll) plus the
 * quick search text. Stored in localStorage; a damaged or foreign entry is ignored, never thrown.
 */
export type SavedGrid = { grid?: GridState; quick?: string };

const PREFIX = 'coworkenv.grid';
export const stateKey = (workspace: string, gridId: string) => `${PREFIX}:${workspace}:${gridId}`;

type Store = Pick<Storage, 'getItem' | 'setItem'>;
const storage = (): Store | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);

export function loadGridState(workspace: string, gridId: string, store = storage()): SavedGrid {
  try {
    const raw = store?.getItem(stateKey(workspace, gridId));
    const v = raw ? (JSON.parse(raw) as unknown) : null;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    const { grid, quick } = v as SavedGrid;
    return {
      ...(grid && typeof grid === 'object' ? { grid: withoutSelection(grid) } : {}),
      ...(typeof quick === 'string' ? { quick } : {}),
    };
  } catch {
    return {};
  }
}

export function saveGridState(workspace: string, gridId: string, s: SavedGrid, store = storage()): void {
  try {
    store?.setItem(stateKey(workspace, gridId), JSON.stringify({ ...s, grid: s.grid && withoutSelection(s.grid) }));
  } catch {
    // Storage full or disabled: the grid still works, it only forgets its layout.
  }
}

/** Row selection and focus are of this visit only; a reload starts without them. */
function withoutSelection(g: GridState): GridState {
  const { rowSelection: _r, focusedCell: _f, cellSelection: _c, ...rest } = g as GridState & Record<string, unknown>;
  return rest as GridState;
}
