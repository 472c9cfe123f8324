import { AgGridReact } from 'ag-grid-react';
import type { ColDef, ValueSetterParams } from 'ag-grid-community';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { SlotFields, type SlotField } from '../../../../shared/contract/entities/slot';
import type { PlanRow } from '../../../../shared/contract/plan.contract';
import { call } from '../../api/client';
import '../../grids/ag-modules';
import { copyLater } from '../../grids/clipboard';
import { ColumnsMenu } from '../../grids/ColumnsMenu';
import { HEADERS, planColumns } from '../../grids/plan.columns';
import { QuickSearch } from '../../grids/QuickSearch';
import { StatusBar } from '../../grids/StatusBar';
import { gridTheme } from '../../grids/theme';
import { undoLast, useUndoStack } from '../../grids/undo';
import { useGridKeys } from '../../grids/use-grid-keys';
import type { ListFilter } from '../../grids/grid-types';
import { useServerGrid } from '../../grids/use-server-grid';
import { usePlanStore } from '../../stores/plan.store';
import type { CellPick } from './CoverageHeatmap';
import { GenerateGridDialog } from './GenerateGridDialog';
import { GenerateTasksDialog } from './GenerateTasksDialog';
import { exportPlanCsv, importPlanCsv } from './plan-csv';
import {
  addSlot,
  copyText,
  deleteMatching,
  deleteSelected,
  fillDown,
  PLAN_GRID,
  pasteTsv,
  saveCell,
} from './plan-actions';
import { PlanStats } from './PlanStats';

// The map's echarts chunk (~470 KB) loads when the map is first opened, not with the plan page (issue 8).
const CoverageHeatmap = lazy(() => import('./CoverageHeatmap').then((m) => ({ default: m.CoverageHeatmap })));

const COVERAGE_KEY = 'coworkenv.plan.coverage';
const count = (n: number) => n.toLocaleString('en-US');
const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const DEFAULT_COL = { sortable: true, resizable: true };
const ROW_SELECTION = {
  mode: 'multiRow',
  checkboxes: true,
  headerCheckbox: false,
  enableClickSelection: false,
} as const;
/** The checkbox column stays at the left edge, before the pinned id columns. */
const SELECTION_COL = { pinned: 'left' } as const;

/** The plan's columns as the grid hook reads them (the fields it may sort and filter on); marks come later. */
const PLAN_COLUMNS = planColumns(() => undefined);

export default function CoveragePlanPage({ workspace }: { workspace: string }) {
  const { notice, cellErrors, notify } = usePlanStore();
  const undo = useUndoStack(PLAN_GRID);
  const [showGenerate, setShowGenerate] = useState(false);
  const [generateFor, setGenerateFor] = useState<{ ids: number[] } | 'below_target' | null>(null);
  // The heat maps take a third of the page from the grid: shown on demand, and the choice is remembered.
  const [showCoverage, setShowCoverage] = useState(() => localStorage.getItem(COVERAGE_KEY) === '1');
  const toggleCoverage = () => setShowCoverage((v) => (localStorage.setItem(COVERAGE_KEY, v ? '0' : '1'), !v));
  const csvInput = useRef<HTMLInputElement>(null);
  const [filter, setFilter] = useState<ListFilter<'plan.list'>>({ filters: [] });
  // (the saved filter and search are read back from the grid once its first rows are in)
  const g = useServerGrid({
    // Generation figures are part of each row: plan.list watches tasks and candidates too (WATCHES).
    procedure: 'plan.list',
    columns: PLAN_COLUMNS,
    gridId: 'plan',
    workspace,
    rowId: (s) => s.id,
    list: (q) => call('plan.list', q),
    values: (field, f) => call('plan.values', { ...f, field }),
    ids: (f) => call('plan.ids', f),
    onError: (text) => notify({ kind: 'error', text }),
  });
  // The notice lives in a store that outlives the page: leaving the page ends the message (issue 21 item 10).
  useEffect(() => () => notify(null), [notify]);
  const errors = useRef(cellErrors);
  errors.current = cellErrors;
  // The grid object is new on every render; callbacks handed to ag-grid once read the latest through this.
  const gRef = useRef(g);
  gRef.current = g;

  /** Validate with the contract's own field schema before anything is sent; invalid input never leaves the cell. */
  const setValue = useCallback((p: ValueSetterParams<PlanRow>) => {
    const field = p.colDef.field as SlotField;
    const data = p.data;
    const store = usePlanStore.getState();
    const parsed = SlotFields[field].safeParse(p.newValue ?? '');
    if (!parsed.success) {
      const msg = parsed.error.issues[0]?.message ?? 'invalid value';
      store.setCellError(data.id, field, `${HEADERS[field]}: ${msg}`);
      store.notify({ kind: 'error', text: `Slot ${data.id} · ${HEADERS[field]}: ${msg} — nothing was written` });
      p.api.refreshCells({ rowNodes: [p.node!], force: true });
      return false;
    }
    store.setCellError(data.id, field, null);
    if (sameValue(parsed.data, data[field])) return false;
    const before = data[field];
    (data as Record<string, unknown>)[field] = parsed.data;
    void saveCell(gRef.current, data.id, field, parsed.data).then((ok) => {
      if (!ok) (data as Record<string, unknown>)[field] = before;
      p.api.refreshCells({ rowNodes: [p.node!], force: true });
    });
    return true;
  }, []);

  const columnDefs = useMemo<ColDef<PlanRow>[]>(
    () =>
      planColumns((id, field) => errors.current[`${id}:${field}`]).map((c) => ({
        ...c,
        ...(c.editable ? { valueSetter: setValue } : {}),
        cellClassRules: { ...(c.cellClassRules as object), ...g.range.classRules },
      })),
    [setValue, g.range.classRules],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: redraw the marked cells whenever the error map changes
  useEffect(() => {
    g.api()?.refreshCells({ force: true });
  }, [cellErrors]);

  const doUndo = () => void undoLast(PLAN_GRID).then((n) => (notify(n), g.refresh()));
  useGridKeys({ z: doUndo });

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (!(e.ctrlKey || e.metaKey) || g.api()?.getEditingCells().length) return;
    const k = e.key.toLowerCase();
    if (k === 'a') e.preventDefault(), g.range.selectAll(g.total ?? 0);
    else if (k === 'd') e.preventDefault(), void fillDown(g);
  };
  const onCopy = (e: React.ClipboardEvent) => {
    if (g.api()?.getEditingCells().length) return;
    const text = copyText(g);
    if (text === undefined) return;
    e.preventDefault();
    if (typeof text === 'string') {
      e.clipboardData.setData('text/plain', text);
      notify({ kind: 'info', text: `Copied ${text.split('\n').length} row(s) as TSV` });
      return;
    }
    // Rows beyond the loaded blocks are read first; the event's clipboard is gone by then.
    notify({ kind: 'info', text: 'Copying…' });
    void text.then((t) =>
      copyLater(t).then((ok) =>
        notify(
          ok
            ? { kind: 'info', text: `Copied ${t.split('\n').length} row(s) as TSV` }
            : { kind: 'error', text: 'The clipboard refused the copy' },
        ),
      ),
    );
  };
  const onPaste = (e: React.ClipboardEvent) => {
    if (g.api()?.getEditingCells().length) return;
    e.preventDefault();
    void pasteTsv(g, e.clipboardData.getData('text/plain'));
  };
  const onFilterChanged = () => setFilter(g.filter());
  /** A heat-map cell → the grid filtered to its slots (set filters on the keys; the quick search is cleared). */
  const pickCell = (p: CellPick) => {
    const set = (v: string) => ({ filterType: 'set', values: [v] });
    g.setQuick('');
    g.api()?.setFilterModel(
      p.map === 'services'
        ? { services: set(p.row), category: { filterType: 'text', type: 'equals', filter: p.col } }
        : { difficulty: set(p.row), language: set(p.col) },
    );
  };
  const filtered = filter.filters.length > 0 || !!filter.quick;

  return (
    <section className="page plan-page">
      <header className="page-head">
        <h1>Coverage plan</h1>
        <PlanStats filter={filter} ready={g.total !== null} />
      </header>
      {/* Labels never carry counts or state (those are in the status bar and titles): a label that grows
          re-wraps the toolbar and moves every button after it under the pointer (issue 21 item 10). */}
      <div className="toolbar" role="toolbar">
        <QuickSearch
          value={g.quick}
          onChange={(q) => (g.setQuick(q), setFilter({ ...g.filter(), ...(q.trim() ? { quick: q.trim() } : {}) }))}
          placeholder="Search family, category, services, notes…"
        />
        <button type="button" onClick={() => addSlot(g)} data-testid="add-slot">
          Add slot
        </button>
        <button
          type="button"
          onClick={() => deleteSelected(g)}
          disabled={!g.selectedCount}
          title={g.selectedCount ? `Delete the ${count(g.selectedCount)} selected slot(s)` : 'Select rows first'}
          data-testid="delete-slots"
        >
          Delete selected
        </button>
        <button
          type="button"
          onClick={() =>
            void g
              .selectAllMatching()
              .then((n) => notify({ kind: 'info', text: `Selected ${n.toLocaleString('en-US')} matching slot(s)` }))
          }
          data-testid="select-matching"
        >
          Select all matching
        </button>
        <button
          type="button"
          disabled={!filtered}
          title={filtered ? `Delete the ${count(g.total ?? 0)} slot(s) matching the filter` : 'Filter or search first'}
          onClick={() =>
            deleteMatching(g, (n) =>
              window.confirm(`Delete the ${count(n)} slot(s) matching the filter? Ctrl+Z undoes.`),
            )
          }
          data-testid="delete-matching"
        >
          Delete matching…
        </button>
        <button
          type="button"
          onClick={doUndo}
          disabled={!undo.length}
          title={undo.length ? `Undo ${undo.at(-1)!.label} (Ctrl+Z)` : 'Nothing to undo (Ctrl+Z)'}
          data-testid="undo"
        >
          Undo
        </button>
        <button
          type="button"
          onClick={() => fillDown(g)}
          title="Ctrl+D: each column's top value down the selected range"
        >
          Fill down
        </button>
        <button type="button" onClick={() => setShowGenerate(true)}>
          Generate grid…
        </button>
        <button
          type="button"
          onClick={() => setGenerateFor({ ids: g.selectedIds() })}
          disabled={!g.selectedCount}
          data-testid="generate-selected"
        >
          Generate for selected…
        </button>
        <button type="button" onClick={() => setGenerateFor('below_target')} data-testid="generate-below">
          Generate for slots below target…
        </button>
        <button type="button" onClick={() => csvInput.current?.click()} data-testid="import-csv">
          Import CSV…
        </button>
        <input
          ref={csvInput}
          type="file"
          accept=".csv,text/csv"
          hidden
          data-testid="import-csv-file"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void importPlanCsv(f).then(() => g.refresh());
          }}
        />
        <button type="button" onClick={() => void exportPlanCsv(g.filter())} data-testid="export-csv">
          Export CSV
        </button>
        <button type="button" onClick={toggleCoverage} aria-pressed={showCoverage} data-testid="toggle-coverage">
          {showCoverage ? 'Hide coverage map' : 'Coverage map'}
        </button>
        <ColumnsMenu api={g.api} />
      </div>
      {showCoverage && (
        <Suspense fallback={<p className="hint">Loading the coverage map…</p>}>
          <CoverageHeatmap onPick={pickCell} />
        </Suspense>
      )}
      <p className="hint">
        Type or double-click to edit · drag or Shift+arrows select a range · Ctrl+C copies it as TSV · Ctrl+V pastes
        from a spreadsheet (a header row maps columns) · Ctrl+D fills down · Ctrl+A selects all · Ctrl+Z undoes
      </p>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: keys and clipboard bubble up from the grid's own cells */}
      <div className="grid-wrap" onCopy={onCopy} onPaste={onPaste} onKeyDown={onKeyDown} data-testid="plan-grid">
        <AgGridReact<PlanRow>
          theme={gridTheme}
          columnDefs={columnDefs}
          defaultColDef={DEFAULT_COL}
          {...g.gridProps}
          onFilterChanged={() => (g.gridProps.onFilterChanged(), onFilterChanged())}
          onFirstDataRendered={onFilterChanged}
          rowSelection={ROW_SELECTION}
          selectionColumnDef={SELECTION_COL}
          stopEditingWhenCellsLoseFocus
          enterNavigatesVertically
          enterNavigatesVerticallyAfterEdit
          tooltipShowDelay={200}
          // Thirteen columns: render them all, so the counts beside the target are there without scrolling.
          suppressColumnVirtualisation
        />
        {g.total === 0 && (
          <div className="empty-state" data-testid="empty-state">
            {filtered ? (
              <>
                No slot matches the filter.{' '}
                <button
                  type="button"
                  className="link-button"
                  onClick={() => (g.api()?.setFilterModel(null), g.setQuick(''), setFilter({ filters: [] }))}
                >
                  Clear filters
                </button>
              </>
            ) : (
              <>
                The plan is empty. <b>Add slot</b>, <b>Generate grid…</b> for a cross product of services, categories
                and dates, or paste rows from a spreadsheet (Ctrl+V).
              </>
            )}
          </div>
        )}
      </div>
      <StatusBar
        total={g.total}
        unfiltered={g.unfiltered}
        filtered={filtered}
        selected={g.selectedCount}
        cells={g.range.cells}
        notice={notice}
        onDismiss={() => notify(null)}
        noun="rows"
        testId="plan-notice"
      />
      {showGenerate && <GenerateGridDialog onClose={() => setShowGenerate(false)} />}
      {generateFor && <GenerateTasksDialog slots={generateFor} onClose={() => setGenerateFor(null)} />}
    </section>
  );
}
