import { AgGridReact } from 'ag-grid-react';
import type { TrajectoryRow } from '../../../../shared/contract/entities/trajectory-row';
import { call, errorText } from '../../api/client';
import { TASK_TRAJECTORY_COLUMNS } from '../../grids/curation.columns';
import type { Notice } from '../../grids/StatusBar';
import { gridTheme } from '../../grids/theme';
import { useServerGrid } from '../../grids/use-server-grid';

const ROW_SELECTION = { mode: 'multiRow', checkboxes: true, headerCheckbox: true, enableClickSelection: true } as const;

/** The trajectories of the task in focus, with include / exclude overrides for the selected ones (logged, undoable). */
export function TaskTrajectories(p: { workspace: string; taskId: string; reason: string; onNotice(n: Notice): void }) {
  const byTask = {
    field: 'task_id' as const,
    operator: 'AND' as const,
    conditions: [{ op: 'equals' as const, value: p.taskId }],
  };
  const g = useServerGrid({
    procedure: 'trajectories.list',
    columns: TASK_TRAJECTORY_COLUMNS,
    gridId: 'curation-trajectories',
    workspace: p.workspace,
    rowId: (t) => t.id,
    list: (q) => call('trajectories.list', { ...q, filters: [...q.filters, byTask] }),
    onError: (text) => p.onNotice({ kind: 'error', text }),
  });
  const override = async (value: 'include' | 'exclude' | null) => {
    const ids = g.selectedIds();
    if (!ids.length) return p.onNotice({ kind: 'error', text: 'Select trajectories first' });
    if (!p.reason.trim())
      return p.onNotice({ kind: 'error', text: 'Type a reason first: every change is logged with why' });
    try {
      const r = await call('curation.override', { override: value, select: { trajectories: ids }, reason: p.reason });
      p.onNotice({
        kind: 'info',
        text: `Override ${value ?? 'cleared'}: ${r.changed} trajectories (batch ${r.batchId ?? '—'})`,
      });
    } catch (e) {
      p.onNotice({ kind: 'error', text: errorText(e) });
    }
  };
  return (
    <div className="curation-trajectories" data-testid="task-trajectories">
      <div className="toolbar">
        <b>Trajectories of {p.taskId}</b>
        <span className="hint">{g.total ?? '…'} attempts</span>
        <button type="button" onClick={() => void override('include')} data-testid="override-include">
          Include
        </button>
        <button type="button" onClick={() => void override('exclude')} data-testid="override-exclude">
          Exclude
        </button>
        <button type="button" onClick={() => void override(null)}>
          Clear override
        </button>
      </div>
      <div className="grid-wrap" style={{ height: 220 }}>
        <AgGridReact<TrajectoryRow>
          theme={gridTheme}
          columnDefs={TASK_TRAJECTORY_COLUMNS}
          defaultColDef={{ sortable: true, resizable: true }}
          {...g.gridProps}
          rowSelection={ROW_SELECTION}
        />
      </div>
    </div>
  );
}
