import { AgGridReact } from 'ag-grid-react';
import type { CellKeyDownEvent, ColDef } from 'ag-grid-community';
import { useMemo, useState } from 'react';
import type { ImportOutcome, TaskRow } from '../../../../shared/contract/entities/task';
import { call, errorText } from '../../api/client';
import '../../grids/ag-modules';
import { cellText, copyLater, rangeTsv } from '../../grids/clipboard';
import { ColumnsMenu } from '../../grids/ColumnsMenu';
import { QuickSearch } from '../../grids/QuickSearch';
import { isMulti } from '../../grids/range';
import { StatusBar, type Notice } from '../../grids/StatusBar';
import { TASK_COLUMNS } from '../../grids/tasks.columns';
import { gridTheme } from '../../grids/theme';
import { useServerGrid } from '../../grids/use-server-grid';
import { navigate } from '../../router';
import { useAppStore } from '../../stores/app.store';
import { ImportReport } from './ImportReport';
import { TaskDetail } from './TaskDetail';
import { UpstreamNotice } from '../../components/UpstreamNotice';

const ROW_SELECTION = {
  mode: 'multiRow',
  checkboxes: true,
  headerCheckbox: false,
  enableClickSelection: false,
} as const;
/** The checkbox column stays at the left edge, before the pinned id columns. */
const SELECTION_COL = { pinned: 'left' } as const;
const DEFAULT_COL = { sortable: true, resizable: true };

/**
 * Imported (later: generated) tasks; sort, filters and search run in SQL; Enter or a click opens the task (its own
 * URL).
 */
export default function TasksPage({ workspace, taskId }: { workspace: string; taskId: string | null }) {
  const [importPath, setImportPath] = useState('');
  const [notice, setNotice] = useState<Notice | null>(null);
  const [report, setReport] = useState<ImportOutcome[] | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const progress = useAppStore((s) => (jobId ? s.jobs[jobId] : undefined));
  const g = useServerGrid({
    procedure: 'tasks.list',
    columns: TASK_COLUMNS,
    gridId: 'tasks',
    workspace,
    rowId: (t) => t.task_id,
    list: (q) => call('tasks.list', q),
    values: (field, f) => call('tasks.values', { ...f, field }),
    ids: (f) => call('tasks.ids', f),
    onError: (text) => setNotice({ kind: 'error', text }),
  });
  const columnDefs = useMemo<ColDef<TaskRow>[]>(
    () => TASK_COLUMNS.map((c) => ({ ...c, cellClassRules: g.range.classRules })),
    [g.range.classRules],
  );
  const open = (id: string) => navigate({ page: 'tasks', taskId: id });

  const validate = async (input: { taskIds?: string[]; all?: boolean }) => {
    try {
      const r = await call('validation.run', input);
      setJobId(r.jobId);
      setNotice(null);
    } catch (e) {
      setNotice({ kind: 'error', text: errorText(e) });
    }
  };

  const runImport = async () => {
    setNotice({ kind: 'info', text: `Importing ${importPath}…` });
    setReport(null);
    try {
      const r = await call('tasks.import', { paths: [importPath.trim()] });
      const c = r.counts;
      const said = r.outcomes.some((o) => o.errors.length || o.warnings.length);
      // The status bar has one line: the counts. Every error and warning goes to the import report above the grid.
      setReport(said ? r.outcomes : null);
      setNotice({
        kind: c.errors ? 'error' : 'info',
        text:
          `${c.imported} imported, ${c.updated} updated, ${c.unchanged} unchanged, ` +
          `${c.errors} with errors, ${c.warnings} warnings` +
          (said ? ' — each listed in the import report' : ''),
      });
    } catch (e) {
      setNotice({ kind: 'error', text: errorText(e) });
    }
  };

  const onCopy = (e: React.ClipboardEvent) => {
    const b = g.range.bounds();
    if (!b || !isMulti(b)) return;
    e.preventDefault();
    const tsv = (rows: TaskRow[]) => rangeTsv(b, rows, (r, c) => cellText((r as Record<string, unknown>)[c]));
    const loaded = g.loadedRows(b.top, b.bottom);
    if (loaded) {
      e.clipboardData.setData('text/plain', tsv(loaded));
      setNotice({ kind: 'info', text: `Copied ${loaded.length} row(s) as TSV` });
    } else
      void g
        .rowsAt(b.top, b.bottom)
        .then((rows) =>
          copyLater(tsv(rows)).then(() => setNotice({ kind: 'info', text: `Copied ${rows.length} row(s) as TSV` })),
        );
  };
  const onCellKeyDown = (e: CellKeyDownEvent<TaskRow>) => {
    g.gridProps.onCellKeyDown(e);
    const ev = e.event as KeyboardEvent | undefined;
    if (ev?.key === 'Enter' && e.data) open(e.data.task_id);
  };
  const filtered = g.filtered();
  const selected = g.selectedIds();

  return (
    <section className="page plan-page">
      <header className="page-head">
        <h1>Tasks</h1>
      </header>
      <UpstreamNotice />
      <form className="toolbar" onSubmit={(e) => (e.preventDefault(), void runImport())}>
        <input
          className="path-input"
          placeholder="Claw-Eval root or its tasks folder, or one task folder"
          value={importPath}
          onChange={(e) => setImportPath(e.target.value)}
          aria-label="Import path"
        />
        <button type="submit" disabled={!importPath.trim()}>
          Import
        </button>
        <span className="sep" />
        <QuickSearch value={g.quick} onChange={g.setQuick} placeholder="Search ids, names, prompts (中文 too)…" />
        <button
          type="button"
          onClick={() =>
            void g.selectAllMatching().then((n) => setNotice({ kind: 'info', text: `Selected ${n} matching task(s)` }))
          }
          data-testid="select-matching-tasks"
        >
          Select all{filtered ? ' matching' : ''}
        </button>
        <button
          type="button"
          disabled={!g.selectedCount}
          onClick={() => void validate({ taskIds: selected })}
          data-testid="validate-selected"
        >
          Validate selected{g.selectedCount ? ` (${g.selectedCount})` : ''}
        </button>
        <button
          type="button"
          disabled={!g.total}
          onClick={() => void validate({ all: true })}
          data-testid="validate-all"
        >
          Validate all
        </button>
        <ColumnsMenu api={g.api} />
        {progress && (
          <span className="hint" data-testid="validation-progress">
            <progress max={progress.total || 1} value={progress.done} /> validation {progress.state}: {progress.done}/
            {progress.total}
          </span>
        )}
      </form>
      {report && <ImportReport outcomes={report} onOpen={open} onClose={() => setReport(null)} />}
      <div className="split-view">
        <div className="grid-wrap" data-testid="tasks-grid" onCopy={onCopy}>
          <AgGridReact<TaskRow>
            theme={gridTheme}
            columnDefs={columnDefs}
            defaultColDef={DEFAULT_COL}
            {...g.gridProps}
            onRowClicked={(e) => {
              // A click on the selection checkbox selects; anywhere else in the row opens the task.
              if (e.data && !(e.event?.target instanceof HTMLInputElement)) open(e.data.task_id);
            }}
            onCellKeyDown={onCellKeyDown}
            rowSelection={ROW_SELECTION}
            selectionColumnDef={SELECTION_COL}
          />
          {g.total === 0 && (
            <div className="empty-state" data-testid="empty-state">
              {filtered ? (
                <>No task matches the filter or search.</>
              ) : (
                <>
                  No tasks yet. <b>Import Claw-Eval tasks</b>: type the path of a Claw-Eval checkout (or its{' '}
                  <code>tasks</code> folder) above and press Import — or run <code>coworkenv tasks import PATH</code>.
                  Generate tasks for your coverage plan once the generator is set up.
                </>
              )}
            </div>
          )}
        </div>
        {taskId && <TaskDetail key={taskId} taskId={taskId} onClose={() => navigate({ page: 'tasks' })} />}
      </div>
      <StatusBar
        total={g.total}
        unfiltered={g.unfiltered}
        filtered={filtered}
        selected={g.selectedCount}
        cells={g.range.cells}
        notice={notice}
        onDismiss={() => setNotice(null)}
        noun="tasks"
        testId="tasks-notice"
      />
    </section>
  );
}
