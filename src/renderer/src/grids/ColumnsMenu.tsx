import type { GridApi } from 'ag-grid-community';
import { useState } from 'react';

/** Show or hide columns (kept with the grid's layout, per workspace). */
export function ColumnsMenu({ api }: { api: () => GridApi | null }) {
  const [open, setOpen] = useState(false);
  const [, redraw] = useState(0);
  const cols = open ? (api()?.getColumns() ?? []).filter((c) => !c.getColId().startsWith('ag-Grid-')) : [];
  return (
    <span className="columns-menu">
      <button type="button" onClick={() => setOpen((x) => !x)} aria-expanded={open} data-testid="columns-menu">
        Columns ▾
      </button>
      {open && (
        <div className="columns-popup" role="menu">
          {cols.map((c) => (
            <label key={c.getColId()}>
              <input
                type="checkbox"
                checked={c.isVisible()}
                onChange={(e) => {
                  api()?.setColumnsVisible([c.getColId()], e.target.checked);
                  redraw((n) => n + 1);
                }}
              />{' '}
              {c.getColDef().headerName ?? c.getColId()}
            </label>
          ))}
          <button type="button" onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
      )}
    </span>
  );
}
