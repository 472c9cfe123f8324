import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AgGridReact } from 'ag-grid-react';
import {
  themeQuartz,
  type CellKeyDownEvent,
  type ColDef,
  type GridApi,
  type GridReadyEvent,
  type ValueSetterParams,
} from 'ag-grid-community';
import { SlotFields, type Slot, type SlotField } from '../../../../shared/contract/entities/slot';
import { onEvent } from '../../api/client';
import { HEADERS, planColumns } from '../../grids/plan.columns';
import { usePlanStore } from '../../stores/plan.store';
import { addSlot, copyText, deleteSelected, fillDown, pasteTsv, saveCell, undoLast } from './plan-actions';
import { planDatasource } from './use-plan-datasource';
import { PlanStats } from './PlanStats';
import { GenerateGridDialog } from './GenerateGridDialog';

/** Denser than the default: a plan is read like a spreadsheet. */
const theme = themeQuartz.withParams({
  fontSize: 13,
  headerFontSize: 13,
  spacing: 5,
  accentColor: '#3b6ef5',
  headerBackgroundColor: '#f1f3f7',
});

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function CoveragePlanPage() {
  const apiRef = useRef<GridApi<Slot> | null>(null);
  const pendingRefresh = useRef(false);
  const { notice, cellErrors, selectedIds, total, undo } = usePlanStore();
  const [showGenerate, setShowGenerate] = useState(false);
  const errorsRef = useRef(cellErrors);
  errorsRef.current = cellErrors;

  /** Validate with the contract's own field schema before anything is sent; invalid input never leaves the cell. */
  const setValue = useCallback((p: ValueSetterParams<Slot>) => {
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
    void saveCell(p.api, data.id, field, parsed.data).then((ok) => {
      if (!ok) (data as Record<string, unknown>)[field] = before;
      p.api.refreshCells({ rowNodes: [p.node!], force: true });
    });
    return true;
  }, []);

  const columnDefs = useMemo<ColDef<Slot>[]>(
    () =>
      planColumns((id, field) => errorsRef.current[`${id}:${field}`]).map((c) =>
        c.editable ? { ...c, valueSetter: setValue } : c,
      ),
    [setValue],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: redraw the marked cells whenever the error map changes
  useEffect(() => {
    apiRef.current?.refreshCells({ force: true });
  }, [cellErrors]);

  // Live updates: edits from the CLI, another window or a job refetch the visible block.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return onEvent('table.changed', ({ table }) => {
      if (table !== 'coverage_slots') return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        const api = apiRef.current;
        if (!api) return;
        if (api.getEditingCells().length) pendingRefresh.current = true;
        else api.refreshInfiniteCache();
      }, 80);
    });
  }, []);

  const onKeyDown = useCallback((e: CellKeyDownEvent<Slot>) => {
    const ev = e.event as KeyboardEvent | undefined;
    const api = apiRef.current;
    if (!ev || !api || api.getEditingCells().length || !(ev.ctrlKey || ev.metaKey)) return;
    const key = ev.key.toLowerCase();
    if (key === 'z') ev.preventDefault(), void undoLast(api);
    else if (key === 'd') ev.preventDefault(), void fillDown(api);
  }, []);

  const onCopy = (e: React.ClipboardEvent) => {
    const api = apiRef.current;
    if (!api || api.getEditingCells().length) return;
    const text = copyText(api);
    if (text === undefined) return;
    e.clipboardData.setData('text/plain', text);
    e.preventDefault();
    usePlanStore.getState().notify({ kind: 'info', text: 'Copied as TSV' });
  };
  const onPaste = (e: React.ClipboardEvent) => {
    const api = apiRef.current;
    if (!api || api.getEditingCells().length) return;
    e.preventDefault();
    void pasteTsv(api, e.clipboardData.getData('text/plain'));
  };

  return (
    <section className="page plan-page">
      <header className="page-head">
        <h1>Coverage plan</h1>
        <PlanStats />
      </header>
      <div className="toolbar" role="toolbar">
        <button type="button" onClick={() => apiRef.current && addSlot(apiRef.current)} data-testid="add-slot">
          Add slot
        </button>
        <button
          type="button"
          onClick={() => apiRef.current && deleteSelected(apiRef.current)}
          disabled={!selectedIds.length}
          data-testid="delete-slots"
        >
          Delete{selectedIds.length ? ` (${selectedIds.length})` : ''}
        </button>
        <button
          type="button"
          onClick={() => apiRef.current && undoLast(apiRef.current)}
          disabled={!undo.length}
          title="Ctrl+Z"
          data-testid="undo"
        >
          Undo{undo.length ? `: ${undo.at(-1)!.label}` : ''}
        </button>
        <button
          type="button"
          onClick={() => apiRef.current && fillDown(apiRef.current)}
          title="Ctrl+D: focused cell's value into the selected rows"
        >
          Fill down
        </button>
        <button type="button" onClick={() => setShowGenerate(true)}>
          Generate grid…
        </button>
        <span className="count" data-testid="row-count">
          {total === null ? '' : `${total} row${total === 1 ? '' : 's'}`}
        </span>
      </div>
      <p className="hint">
        Double-click or type to edit · Ctrl+C copies the selected rows (or the focused cell) as TSV · Ctrl+V pastes from
        a spreadsheet at the focused cell (a header row maps columns; rows with an id update) · Ctrl+D fills the focused
        value into the selected rows · Ctrl+Z undoes
      </p>
      {notice && (
        <div
          className={`notice notice-${notice.kind}`}
          role={notice.kind === 'error' ? 'alert' : 'status'}
          data-testid="plan-notice"
        >
          {notice.text}
          <button
            type="button"
            className="link"
            onClick={() => usePlanStore.getState().notify(null)}
            aria-label="dismiss"
          >
            ×
          </button>
        </div>
      )}
      <div className="grid-wrap" onCopy={onCopy} onPaste={onPaste} data-testid="plan-grid">
        <AgGridReact<Slot>
          theme={theme}
          columnDefs={columnDefs}
          defaultColDef={{ sortable: true, resizable: true }}
          rowModelType="infinite"
          datasource={planDatasource}
          cacheBlockSize={100}
          maxBlocksInCache={50}
          getRowId={(p) => String(p.data.id)}
          rowSelection={{ mode: 'multiRow', checkboxes: true, headerCheckbox: false, enableClickSelection: false }}
          onSelectionChanged={(e) => usePlanStore.getState().setSelected(e.api.getSelectedRows().map((r) => r.id))}
          onGridReady={(e: GridReadyEvent<Slot>) => (apiRef.current = e.api)}
          onCellKeyDown={onKeyDown}
          onCellEditingStopped={() => {
            if (pendingRefresh.current) (pendingRefresh.current = false), apiRef.current?.refreshInfiniteCache();
          }}
          stopEditingWhenCellsLoseFocus
          tooltipShowDelay={200}
        />
      </div>
      {showGenerate && <GenerateGridDialog onClose={() => setShowGenerate(false)} />}
    </section>
  );
}
