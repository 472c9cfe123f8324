import { AgGridReact } from 'ag-grid-react';
import type { CurationBatch } from '../../../../shared/contract/entities/curation';
import { call, errorText } from '../../api/client';
import { LOG_COLUMNS } from '../../grids/curation.columns';
import type { Notice } from '../../grids/StatusBar';
import { gridTheme } from '../../grids/theme';
import { useServerGrid } from '../../grids/use-server-grid';

const ROW_SELECTION = { mode: 'singleRow', checkboxes: false, enableClickSelection: true } as const;

/** The curation log as its own grid: who, when, why, what was selected; undo or redo the selected batch. */
export function CurationLog({ workspace, onNotice }: { workspace: string; onNotice(n: Notice): void }) {
  const g = useServerGrid({
    procedure: 'curation.log',
    columns: LOG_COLUMNS,
    gridId: 'curation-log',
    workspace,
    rowId: (b) => b.id,
    list: (q) => call('curation.log', q),
    onError: (text) => onNotice({ kind: 'error', text }),
  });
  const act = async (undo: boolean) => {
    const id = g.selectedIds()[0];
    if (id === undefined) return onNotice({ kind: 'error', text: 'Select a batch in the log first' });
    try {
      const r = await call(undo ? 'curation.undo' : 'curation.redo', { batchId: id });
      onNotice({
        kind: 'info',
        text:
          `${undo ? 'Undid' : 'Redid'} batch ${id}: ${r.changed} changed` +
          (r.conflicts ? `, ${r.conflicts} changed since, kept` : ''),
      });
    } catch (e) {
      onNotice({ kind: 'error', text: errorText(e) });
    }
  };
  return (
    <div className="curation-log" data-testid="curation-log">
      <div className="toolbar">
        <b>Curation log</b>
        <span className="hint">{g.total ?? '…'} batches</span>
        <button type="button" onClick={() => void act(true)} data-testid="log-undo">
          Undo selected batch
        </button>
        <button type="button" onClick={() => void act(false)} data-testid="log-redo">
          Redo selected batch
        </button>
      </div>
      <div className="grid-wrap" style={{ height: 240 }}>
        <AgGridReact<CurationBatch>
          theme={gridTheme}
          columnDefs={LOG_COLUMNS}
          defaultColDef={{ sortable: true, resizable: true }}
          {...g.gridProps}
          rowSelection={ROW_SELECTION}
        />
      </div>
    </div>
  );
}
