import { useEffect, useMemo, useRef, useState } from 'react';
import { AgGridReact } from 'ag-grid-react';
import { themeQuartz, type ColDef, type GridApi, type ValueSetterParams } from 'ag-grid-community';
import { call, errorText } from '../../api/client';

type Row = Record<string, string> & { __index: string };
const theme = themeQuartz.withParams({ fontSize: 12, headerFontSize: 12, spacing: 4, accentColor: '#3b6ef5' });

/** JSON text → what a person reads: strings unquoted, everything else as JSON. */
const show = (json: string | undefined) => {
  if (json === undefined) return '';
  if (json.startsWith('"')) {
    try {
      return JSON.parse(json) as string;
    } catch {
      return json;
    }
  }
  return json;
};

/**
 * One service's fixture records. Values travel as Python-style JSON text so 328.0 stays a float.
 * A string cell is edited as plain text; other cells as JSON. The server validates the record
 * against the service's schema; an invalid edit is refused at the cell and nothing is saved.
 */
export function FixtureGrid({
  taskId,
  service,
  fixtureEnv,
  source,
}: {
  taskId: string;
  service: string;
  fixtureEnv: string;
  source: string;
}) {
  const [data, setData] = useState<{ columns: string[]; rows: Row[]; required: string[] } | null>(null);
  const [notice, setNotice] = useState<{ kind: 'error' | 'info'; text: string } | null>(null);
  const apiRef = useRef<GridApi<Row> | null>(null);

  useEffect(() => {
    call('tasks.fixtureRows', { taskId, service, fixtureEnv }).then(
      (r) =>
        setData({
          columns: r.columns,
          rows: r.rows.map((x, i) => ({ ...x, __index: String(i) })),
          required: r.requiredColumns,
        }),
      (e) => setNotice({ kind: 'error', text: errorText(e) }),
    );
  }, [taskId, service, fixtureEnv]);

  const columns = useMemo<ColDef<Row>[]>(() => {
    if (!data) return [];
    const setter = (p: ValueSetterParams<Row>) => {
      const field = p.colDef.field!;
      const old = p.data[field];
      const typed = String(p.newValue ?? '');
      const value =
        old === undefined || old.startsWith('"')
          ? typed === '' && old === undefined
            ? ''
            : JSON.stringify(typed)
          : typed;
      if (value === old) return false;
      const index = Number(p.data.__index);
      call('tasks.updateFixtureCell', { taskId, service, fixtureEnv, index, field, value }).then(
        (r) => {
          p.node!.setData({ ...r.row, __index: p.data.__index } as Row);
          setNotice({ kind: 'info', text: `Saved ${field} of record ${index} — task is now version ${r.version}` });
        },
        (e) => {
          setNotice({ kind: 'error', text: errorText(e) });
          apiRef.current?.refreshCells({ rowNodes: [p.node!], force: true });
        },
      );
      return false; // the row updates from the server's answer, never optimistically
    };
    return [
      { headerName: '#', field: '__index', width: 60, editable: false, pinned: 'left' },
      ...data.columns.map((c) => ({
        field: c,
        headerName: data.required.includes(c) ? `${c} *` : c,
        editable: true,
        valueFormatter: (p: { value?: string }) => show(p.value),
        valueGetter: (p: { data?: Row }) => p.data?.[c],
        cellEditorParams: { useFormatter: true },
        valueSetter: setter,
        tooltipValueGetter: (p: { value?: string }) => show(p.value),
        width: 160,
      })),
    ];
  }, [data, taskId, service, fixtureEnv]);

  return (
    <div className="fixture">
      <p className="hint">
        {source} · {data?.rows.length ?? '…'} records · double-click a cell to edit; * = required by the record schema
      </p>
      {notice && (
        <p className={`notice notice-${notice.kind}`} data-testid="fixture-notice">
          {notice.text}
        </p>
      )}
      <div className="fixture-grid" data-testid="fixture-grid">
        {data && (
          <AgGridReact<Row>
            theme={theme}
            rowData={data.rows}
            columnDefs={columns}
            getRowId={(p) => p.data.__index}
            onGridReady={(e) => (apiRef.current = e.api)}
            tooltipShowDelay={300}
            stopEditingWhenCellsLoseFocus
          />
        )}
      </div>
    </div>
  );
}
