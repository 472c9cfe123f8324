import { AgGridReact } from 'ag-grid-react';
import type { ColDef } from 'ag-grid-community';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CurationBucket, CurationTaskRow, TaskSelection } from '../../../../shared/contract/entities/curation';
import { call, errorText } from '../../api/client';
import '../../grids/ag-modules';
import { CURATION_COLUMNS } from '../../grids/curation.columns';
import { QuickSearch } from '../../grids/QuickSearch';
import { StatusBar, type Notice } from '../../grids/StatusBar';
import { gridTheme } from '../../grids/theme';
import { useGridKeys } from '../../grids/use-grid-keys';
import type { ListFilter } from '../../grids/grid-types';
import { useServerGrid } from '../../grids/use-server-grid';
import { CurationCharts } from './CurationCharts';
import { CurationLog } from './CurationLog';
import { CurationRules } from './CurationRules';
import { ScoreBasisPanel } from './ScoreBasisPanel';
import { TaskTrajectories } from './TaskTrajectories';

const ROW_SELECTION = {
  mode: 'multiRow',
  checkboxes: true,
  headerCheckbox: false,
  enableClickSelection: true,
} as const;
const DEFAULT_COL = { sortable: true, resizable: true };
const KEYS: Record<string, CurationBucket> = { k: 'KEEP', t: 'TRIVIAL', u: 'UNSOLVABLE' };
/** A bulk change of more tasks than this asks first, saying what it will change. */
export const CONFIRM_ABOVE = 10;

const typing = (t: EventTarget | null) =>
  t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

/**
 * Curation: the tasks with their statistics and buckets (sort and filters in SQL), the selected
 * task's trajectories below, K / T / U to assign the selected rows (or the focused one), charts, and
 * the log. Every change needs the reason typed in the toolbar; every batch can be undone from the log.
 */
export default function CurationPage({ workspace }: { workspace: string }) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const [reason, setReason] = useState('');
  const [current, setCurrent] = useState<string | null>(null);
  const [filter, setFilter] = useState<ListFilter<'curation.tasks'>>({ filters: [] });
  // "Select all" names the filter as it was when clicked; any change of filter or search clears the selection, so
  // a selection never outlives the filter it was made under (4 ticks shown, 37 tasks changed).
  const allMatching = useRef<TaskSelection | null>(null);
  const g = useServerGrid({
    procedure: 'curation.tasks',
    columns: CURATION_COLUMNS,
    gridId: 'curation',
    workspace,
    rowId: (t) => t.task_id,
    list: (q) => call('curation.tasks', q),
    values: (field, f) => call('curation.values', { ...f, field }),
    ids: (f) => call('curation.ids', f),
    onError: (text) => setNotice({ kind: 'error', text }),
  });
  const columnDefs = useMemo<ColDef<CurationTaskRow>[]>(
    () => CURATION_COLUMNS.map((c) => ({ ...c, cellClassRules: g.range.classRules })),
    [g.range.classRules],
  );

  /** The selection a bulk action names: every row matching the filter when "select all matching" made it, else ids. */
  const selection = (): TaskSelection | null => {
    // The grid's field names are the contract's CurationField (the columns are its fields).
    // With no filter, "every row matching" is every task: the contract refuses an empty filter in a bulk write.
    if (allMatching.current && g.selectedCount) return allMatching.current;
    const ids = g.selectedIds();
    if (ids.length) return { tasks: ids };
    const focused = g.api()?.getFocusedCell();
    const row = focused ? g.api()?.getDisplayedRowAtIndex(focused.rowIndex)?.data : undefined;
    return row ? { tasks: [row.task_id] } : null;
  };

  const run = async (
    label: string,
    f: () => Promise<{ batchId: number | null; changed: number; conflicts?: number }>,
  ) => {
    try {
      const r = await f();
      setNotice({
        kind: 'info',
        text:
          r.batchId === null
            ? `${label}: nothing changed`
            : `${label}: ${r.changed} changed (batch ${r.batchId})` +
              (r.conflicts ? `, ${r.conflicts} changed since, kept` : ''),
      });
    } catch (e) {
      setNotice({ kind: 'error', text: errorText(e) });
    }
  };
  const dropSelection = () => {
    allMatching.current = null;
    g.clearSelection();
  };
  /**
   * Shows what a bulk action will change before it does (a count; a confirm above CONFIRM_ABOVE), then runs it and
   * empties the reason box: the next change needs its own reason, never the last one's.
   */
  const preview = async (
    label: string,
    p: { action: 'assign' | 'suggest'; value: string | null; select: TaskSelection; replaceAssigned?: boolean },
    f: () => Promise<{ batchId: number | null; changed: number; conflicts?: number }>,
  ) => {
    try {
      const v = await call('curation.preview', p);
      const kept = v.keptAssigned ? `; ${v.keptAssigned} assigned bucket(s) left as they are` : '';
      const what =
        `${label}: ${v.changed} of ${v.selected} selected task(s) will change` + ` (${v.replaced} replace a bucket)`;
      if (!v.changed) return setNotice({ kind: 'info', text: `${label}: nothing would change${kept}` });
      if (v.changed > CONFIRM_ABOVE && !window.confirm(`${what}${kept}. Go ahead?`))
        return setNotice({ kind: 'info', text: `${label}: cancelled, nothing changed` });
    } catch (e) {
      return setNotice({ kind: 'error', text: errorText(e) });
    }
    await run(label, f);
    setReason('');
  };
  const needReason = () => {
    if (reason.trim()) return false;
    setNotice({ kind: 'error', text: 'Type a reason first: every change is logged with why' });
    document.querySelector<HTMLInputElement>('[data-testid="curation-reason"]')?.focus();
    return true;
  };
  const assign = (bucket: CurationBucket | null) => {
    const select = selection();
    if (!select) return setNotice({ kind: 'error', text: 'Select tasks (or focus a row) first' });
    if (needReason()) return;
    void preview(`Assign ${bucket ?? 'none'}`, { action: 'assign', value: bucket, select }, () =>
      call('curation.assign', { bucket, select, reason }),
    );
  };
  const applySuggestions = () => {
    // Never "everything" by default: with nothing selected, Select all says so on purpose.
    const select = selection();
    if (!select) return setNotice({ kind: 'error', text: 'Select tasks (or Select all) to apply their suggestions' });
    if (needReason()) return;
    void preview('Apply suggestions', { action: 'suggest', value: null, select }, () =>
      call('curation.applySuggestions', { select, reason }),
    );
  };
  const undoLast = () => void run('Undo', () => call('curation.undo', {}));
  useGridKeys({ z: undoLast });

  const keys = useRef({ assign });
  keys.current = { assign };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || document.querySelector('.dialog-backdrop')) return;
      const bucket = KEYS[e.key.toLowerCase()];
      if (!bucket) return;
      e.preventDefault();
      keys.current.assign(bucket);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <section className="page plan-page curation-page">
      <header className="page-head">
        <h1>Curation</h1>
        <p className="hint">
          Mean completion is a mean of fractional values over attempts, not a success rate. K / T / U assign KEEP /
          TRIVIAL / UNSOLVABLE to the selected tasks.
        </p>
      </header>
      <div className="toolbar">
        <input
          className="path-input"
          placeholder="Reason (required, logged with every change)"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          aria-label="Reason"
          data-testid="curation-reason"
        />
        <QuickSearch
          value={g.quick}
          onChange={(t) => (g.setQuick(t), dropSelection())}
          placeholder="Search task ids, names, categories…"
        />
        <button
          type="button"
          onClick={() =>
            void g.selectAllMatching().then((n) => {
              const f = g.filter();
              allMatching.current = g.filtered() ? { where: f as TaskSelection & never } : { all: true };
              setNotice({ kind: 'info', text: `Selected ${n} matching task(s)` });
            })
          }
          data-testid="select-matching"
        >
          Select all{g.filtered() ? ' matching' : ''}
        </button>
        {(['KEEP', 'TRIVIAL', 'UNSOLVABLE'] as const).map((b) => (
          <button type="button" key={b} onClick={() => assign(b)} data-testid={`assign-${b}`}>
            {b} ({b[0]})
          </button>
        ))}
        <button type="button" onClick={applySuggestions} data-testid="apply-suggestions">
          Apply suggestions
        </button>
        <button type="button" onClick={undoLast} title="Ctrl+Z" data-testid="curation-undo">
          Undo last
        </button>
        <button
          type="button"
          onClick={() => void run('Redo', () => call('curation.redo', {}))}
          data-testid="curation-redo"
        >
          Redo
        </button>
      </div>
      <div className="grid-wrap curation-grid" data-testid="curation-grid">
        <AgGridReact<CurationTaskRow>
          theme={gridTheme}
          columnDefs={columnDefs}
          defaultColDef={DEFAULT_COL}
          {...g.gridProps}
          onFilterChanged={() => {
            g.gridProps.onFilterChanged();
            dropSelection();
            setFilter(g.filter());
          }}
          onSelectionChanged={(e) => {
            g.gridProps.onSelectionChanged(e);
            if (e.source !== 'api') allMatching.current = null;
          }}
          onCellFocused={(e) => {
            const row = e.rowIndex === null ? undefined : g.api()?.getDisplayedRowAtIndex(e.rowIndex)?.data;
            if (row) setCurrent(row.task_id);
          }}
          rowSelection={ROW_SELECTION}
        />
        {g.total === 0 && (
          <div className="empty-state" data-testid="empty-state">
            {g.filtered() ? (
              <>No task matches the filter or search.</>
            ) : (
              <>
                No trajectories yet. Import trajectories (<code>coworkenv trajectories import PATH</code>) or run tasks:
                every task with attempts appears here with its statistics.
              </>
            )}
          </div>
        )}
      </div>
      <StatusBar
        total={g.total}
        unfiltered={g.unfiltered}
        filtered={g.filtered()}
        selected={g.selectedCount}
        cells={g.range.cells}
        notice={notice}
        onDismiss={() => setNotice(null)}
        noun="tasks"
        testId="curation-notice"
      />
      {current && (
        <TaskTrajectories key={current} workspace={workspace} taskId={current} reason={reason} onNotice={setNotice} />
      )}
      <CurationRules reason={reason} onNotice={setNotice} />
      <ScoreBasisPanel reason={reason} onNotice={setNotice} />
      <CurationCharts filter={filter} />
      <CurationLog workspace={workspace} onNotice={setNotice} />
    </section>
  );
}
