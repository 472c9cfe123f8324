import { AgGridReact } from 'ag-grid-react';
import type { CellKeyDownEvent, ColDef } from 'ag-grid-community';
import { useMemo, useRef, useState } from 'react';
import type { TrajectoryRow } from '../../../../shared/contract/entities/trajectory-row';
import { call } from '../../api/client';
import '../../grids/ag-modules';
import { ColumnsMenu } from '../../grids/ColumnsMenu';
import { QuickSearch } from '../../grids/QuickSearch';
import { StatusBar, type Notice } from '../../grids/StatusBar';
import { TRAJECTORY_GRID_COLUMNS } from '../../grids/trajectories.columns';
import { gridTheme } from '../../grids/theme';
import { useServerGrid } from '../../grids/use-server-grid';
import { navigate, type Route } from '../../router';
import { CompareView } from './CompareView';
import { RegradeTrajectories } from './RegradeTrajectories';
import { TextSearch, type TextQuery } from './TextSearch';
import { TrajectoryDelete } from './TrajectoryDelete';
import { TrajectoryImport } from './TrajectoryImport';
import { TrajectoryViewer } from './TrajectoryViewer';
import { UpstreamAgreement } from './UpstreamAgreement';
import { UpstreamGrade } from './UpstreamGrade';
import { UpstreamNotice } from '../../components/UpstreamNotice';
import './trajectories.css';

const DEFAULT_COL = { sortable: true, resizable: true };
// Ticking is for deletion; a click on a row still opens it.
const ROW_SELECTION = {
  mode: 'multiRow',
  checkboxes: true,
  headerCheckbox: false,
  enableClickSelection: false,
} as const;

/**
 * Every stored trajectory (imports and runs): sort, filters, quick search (ids and labels) and the
 * full-text search over message text all run in SQL. A row opens the viewer (its own URL);
 * #/trajectories/<a>/compare/<b> shows two runs of one task side by side.
 */
export default function TrajectoriesPage({ workspace, route }: { workspace: string; route: Route }) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const [text, setTextState] = useState<TextQuery | null>(null);
  const [agreement, setAgreement] = useState(false);
  const textRef = useRef<TextQuery | null>(null);
  const withText = <T extends object>(q: T) => (textRef.current ? { ...q, text: textRef.current } : q);
  const g = useServerGrid({
    procedure: 'trajectories.list',
    columns: TRAJECTORY_GRID_COLUMNS,
    gridId: 'trajectories',
    workspace,
    rowId: (r) => r.id,
    list: (q) => call('trajectories.list', withText(q)),
    values: (field, f) => call('trajectories.values', withText({ ...f, field })),
    ids: (f) => call('trajectories.ids', withText(f)),
    onError: (t) => setNotice({ kind: 'error', text: t }),
  });
  const columnDefs = useMemo<ColDef<TrajectoryRow>[]>(
    () => TRAJECTORY_GRID_COLUMNS.map((c) => ({ ...c, cellClassRules: g.range.classRules })),
    [g.range.classRules],
  );
  const setText = (t: TextQuery | null) => {
    textRef.current = t;
    setTextState(t);
    setNotice(null);
    g.api()?.purgeInfiniteCache();
  };
  const open = (id: number) => navigate({ page: 'trajectories', trajectoryId: id });
  const onCellKeyDown = (e: CellKeyDownEvent<TrajectoryRow>) => {
    g.gridProps.onCellKeyDown(e);
    const ev = e.event as KeyboardEvent | undefined;
    if (ev?.key === 'Enter' && e.data) open(e.data.id);
  };
  const filtered = g.filtered() || text !== null;
  const { trajectoryId, compareId } = route;

  if (trajectoryId !== undefined && compareId !== undefined)
    return (
      <section className="page plan-page">
        <CompareView
          leftId={trajectoryId}
          rightId={compareId}
          onClose={() => navigate({ page: 'trajectories', trajectoryId })}
        />
      </section>
    );

  return (
    <section className="page plan-page">
      <header className="page-head">
        <h1>Trajectories</h1>
      </header>
      <UpstreamNotice />
      <TrajectoryImport onNotice={setNotice} />
      <div className="toolbar">
        <QuickSearch value={g.quick} onChange={g.setQuick} placeholder="Task, agent, collection…" />
        <TextSearch value={text} onChange={setText} />
        {text && (
          <span className="chip" data-testid="text-filter">
            message text: {text.query}
            <button type="button" className="link" aria-label="clear text search" onClick={() => setText(null)}>
              ×
            </button>
          </span>
        )}
        <span className="sep" />
        <TrajectoryDelete
          grid={g}
          matchingIds={() => call('trajectories.ids', withText(g.filter()))}
          filtered={filtered}
          onNotice={setNotice}
        />
        <RegradeTrajectories
          grid={g}
          matchingIds={() => call('trajectories.ids', withText(g.filter()))}
          filtered={filtered}
          onNotice={setNotice}
        />
        <UpstreamGrade
          grid={g}
          matchingIds={() => call('trajectories.ids', withText(g.filter()))}
          filtered={filtered}
          onNotice={setNotice}
        />
        <button type="button" onClick={() => setAgreement((a) => !a)} data-testid="upstream-agreement-toggle">
          Agreement with upstream
        </button>
        <ColumnsMenu api={g.api} />
      </div>
      {agreement && <UpstreamAgreement onClose={() => setAgreement(false)} />}
      <div className="split-view traj-split">
        <div className="grid-wrap" data-testid="trajectories-grid">
          <AgGridReact<TrajectoryRow>
            theme={gridTheme}
            columnDefs={columnDefs}
            defaultColDef={DEFAULT_COL}
            {...g.gridProps}
            onRowClicked={(e) => e.data && open(e.data.id)}
            onCellKeyDown={onCellKeyDown}
            rowSelection={ROW_SELECTION}
          />
          {g.total === 0 && (
            <div className="empty-state" data-testid="empty-state">
              {filtered ? (
                <>No trajectory matches the filters or the search.</>
              ) : (
                <>
                  No trajectories yet. Import runs from other harnesses above, or with{' '}
                  <code>coworkenv trajectories import FILE… [--tools FILE]</code> (Claw-Eval traces, τ-bench, τ²-bench,
                  OpenAI or sharegpt JSONL), or run an agent on your tasks.
                </>
              )}
            </div>
          )}
        </div>
        {trajectoryId !== undefined && (
          <TrajectoryViewer key={trajectoryId} id={trajectoryId} onClose={() => navigate({ page: 'trajectories' })} />
        )}
      </div>
      <StatusBar
        total={g.total}
        unfiltered={g.unfiltered}
        filtered={filtered}
        selected={g.selectedCount}
        cells={g.range.cells}
        notice={notice}
        onDismiss={() => setNotice(null)}
        noun="trajectories"
        testId="trajectories-notice"
      />
    </section>
  );
}
