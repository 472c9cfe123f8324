import { useEffect, useMemo, useRef, useState } from 'react';
import { AgGridReact } from 'ag-grid-react';
import { themeQuartz, type GridApi, type IDatasource } from 'ag-grid-community';
import type { TaskRow } from '../../../../shared/contract/entities/task';
import { call, errorText, onEvent } from '../../api/client';
import { toPageQuery } from '../../grids/grid-query';
import { TASK_COLUMNS } from '../../grids/tasks.columns';
import { TaskDetail } from './TaskDetail';
import { useAppStore } from '../../stores/app.store';

// Props passed to ag-grid are module constants: a new object on every render can make it reset the row model.
const ROW_SELECTION = {
  mode: 'multiRow',
  checkboxes: true,
  headerCheckbox: false,
  enableClickSelection: false,
} as const;
const DEFAULT_COL = { sortable: true, resizable: true };
const rowId = (p: { data: TaskRow }) => p.data.task_id;

const theme = themeQuartz.withParams({
  fontSize: 13,
  headerFontSize: 13,
  spacing: 5,
  accentColor: '#3b6ef5',
  headerBackgroundColor: '#f1f3f7',
});

/** Imported (later: generated) tasks; sort and filter run in SQL; a click opens the task. */
export function TasksPage() {
  const apiRef = useRef<GridApi<TaskRow> | null>(null);
  const [total, setTotal] = useState<number | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [importPath, setImportPath] = useState('');
  const [notice, setNotice] = useState<{ kind: 'error' | 'info'; text: string } | null>(null);
  const [checked, setChecked] = useState<string[]>([]);
  const [jobId, setJobId] = useState<string | null>(null);
  const progress = useAppStore((s) => (jobId ? s.jobs[jobId] : undefined));

  // Stable across renders: a new datasource object makes ag-grid reset (and lose the sort).
  const datasource = useMemo<IDatasource>(
    () => ({
      getRows(p) {
        call(
          'tasks.list',
          toPageQuery(
            p.startRow,
            p.endRow,
            p.sortModel as { colId: string; sort: 'asc' | 'desc' }[],
            p.filterModel,
          ) as never,
        ).then(
          (r) => (setTotal(r.total), p.successCallback(r.rows, r.total)),
          (e) => (setNotice({ kind: 'error', text: errorText(e) }), p.failCallback()),
        );
      },
    }),
    [],
  );

  useEffect(
    () => onEvent('table.changed', ({ table }) => table === 'tasks' && apiRef.current?.refreshInfiniteCache()),
    [],
  );

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
    try {
      const r = await call('tasks.import', { paths: [importPath.trim()] });
      const errors = r.outcomes.flatMap((o) => o.errors);
      const c = r.counts;
      setNotice({
        kind: errors.length ? 'error' : 'info',
        text:
          `${c.imported} imported, ${c.updated} updated, ${c.unchanged} unchanged, ` +
          `${c.errors} with errors, ${c.warnings} warnings` +
          (errors.length ? ` — ${errors.slice(0, 3).join(' · ')}` : ''),
      });
    } catch (e) {
      setNotice({ kind: 'error', text: errorText(e) });
    }
  };

  return (
    <section className="page plan-page">
      <header className="page-head">
        <h1>Tasks</h1>
        <span className="stats" data-testid="task-count">
          {total === null ? '' : `${total} task${total === 1 ? '' : 's'}`}
        </span>
      </header>
      <form className="toolbar" onSubmit={(e) => (e.preventDefault(), void runImport())}>
        <input
          className="path-input"
          placeholder="Claw-Eval root or task folder, e.g. /data/claw-eval"
          value={importPath}
          onChange={(e) => setImportPath(e.target.value)}
          aria-label="Import path"
        />
        <button type="submit" disabled={!importPath.trim()}>
          Import
        </button>
        <span className="sep" />
        <button
          type="button"
          disabled={!checked.length}
          onClick={() => void validate({ taskIds: checked })}
          data-testid="validate-selected"
        >
          Validate selected{checked.length ? ` (${checked.length})` : ''}
        </button>
        <button type="button" disabled={!total} onClick={() => void validate({ all: true })} data-testid="validate-all">
          Validate all
        </button>
        {progress && (
          <span className="hint" data-testid="validation-progress">
            <progress max={progress.total || 1} value={progress.done} /> validation {progress.state}: {progress.done}/
            {progress.total}
          </span>
        )}
      </form>
      {notice && (
        <div
          className={`notice notice-${notice.kind}`}
          role={notice.kind === 'error' ? 'alert' : 'status'}
          data-testid="tasks-notice"
        >
          {notice.text}
        </div>
      )}
      <div className="split-view">
        <div className="grid-wrap" data-testid="tasks-grid">
          <AgGridReact<TaskRow>
            theme={theme}
            columnDefs={TASK_COLUMNS}
            defaultColDef={DEFAULT_COL}
            rowModelType="infinite"
            datasource={datasource}
            cacheBlockSize={100}
            getRowId={rowId}
            onGridReady={(e) => (apiRef.current = e.api)}
            onRowClicked={(e) => {
              // A click on the selection checkbox selects; anywhere else in the row opens the task.
              if (e.data && !(e.event?.target instanceof HTMLInputElement)) setSelected(e.data.task_id);
            }}
            rowSelection={ROW_SELECTION}
            onSelectionChanged={(e) => setChecked(e.api.getSelectedRows().map((r) => r.task_id))}
          />
        </div>
        {selected && <TaskDetail key={selected} taskId={selected} onClose={() => setSelected(null)} />}
      </div>
    </section>
  );
}
