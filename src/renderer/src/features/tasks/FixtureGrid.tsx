import { AgGridReact } from 'ag-grid-react';
import type { ColDef, GridApi, ValueSetterParams } from 'ag-grid-community';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FixtureColumn } from '../../../../shared/contract/tasks.contract';
import { ApiError, call, errorText, onEvent } from '../../api/client';
import { rangeTsv } from '../../grids/clipboard';
import { isMulti } from '../../grids/range';
import { SelectEditor } from '../../grids/SelectEditor';
import { StatusBar, type Notice } from '../../grids/StatusBar';
import { smallGridTheme } from '../../grids/theme';
import { undoLast, useUndoStack, useUndoStore } from '../../grids/undo';
import { useGridKeys } from '../../grids/use-grid-keys';
import { useRange } from '../../grids/use-range';

type Row = Record<string, string> & { __index: string };

/** JSON text → what a person reads: strings unquoted, everything else as JSON. */
export const show = (json: string | undefined) => {
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

/** What the user typed → the JSON text the core parses for this column's type. */
export function toJsonText(typed: string, col: FixtureColumn): string {
  if (typed.trim() === '') return '';
  if (['string', 'date', 'enum'].includes(col.type)) return JSON.stringify(typed);
  return typed.trim();
}

const TYPE_HINT: Record<FixtureColumn['type'], string> = {
  string: 'text',
  integer: 'whole number',
  number: 'number',
  boolean: 'true / false',
  date: 'date',
  enum: 'one of a list',
  list: 'list (JSON)',
  json: 'JSON',
};

/**
 * One service's fixture records. Values travel as Python-style JSON text so 328.0 stays a float.
 * Each column is edited as its type (from the record schema): text and dates as plain text, enums
 * and booleans from a dropdown that takes typing, numbers as numbers. The core refuses a wrong type,
 * an empty required field or a duplicate key at the cell; a saved edit is a new task version, and
 * its validators run at once. Ctrl+Z undoes (never over another writer's change).
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
  const [data, setData] = useState<{ rows: Row[]; columns: FixtureColumn[] } | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const errorsRef = useRef(errors);
  errorsRef.current = errors;
  const apiRef = useRef<GridApi<Row> | null>(null);
  const getApi = useCallback(() => (apiRef.current?.isDestroyed() ? null : (apiRef.current as GridApi | null)), []);
  const range = useRange(getApi);
  const undoId = `fixture:${taskId}:${fixtureEnv}`;
  const undo = useUndoStack(undoId);

  const load = useCallback(
    () =>
      call('tasks.fixtureRows', { taskId, service, fixtureEnv }).then(
        (r) => setData({ columns: r.columnTypes, rows: r.rows.map((x, i) => ({ ...x, __index: String(i) })) }),
        (e) => setNotice({ kind: 'error', text: errorText(e) }),
      ),
    [taskId, service, fixtureEnv],
  );
  useEffect(() => void load(), [load]);
  // Edits from the CLI or another window show up live.
  useEffect(() => onEvent('table.changed', ({ table }) => table === 'tasks' && void load()), [load]);

  const write = useCallback(
    async (index: number, field: string, value: string, expected?: string | null) => {
      const r = await call('tasks.updateFixtureCell', {
        taskId,
        service,
        fixtureEnv,
        index,
        field,
        value,
        ...(expected === undefined ? {} : { expected }),
      });
      const node = apiRef.current?.getRowNode(String(index));
      node?.setData({ ...r.row, __index: String(index) } as Row);
      return r;
    },
    [taskId, service, fixtureEnv],
  );

  const columns = useMemo<ColDef<Row>[]>(() => {
    if (!data) return [];
    const setter = (col: FixtureColumn) => (p: ValueSetterParams<Row>) => {
      const field = col.name;
      const old = p.data[field];
      const value = toJsonText(String(p.newValue ?? ''), col);
      if (value === (old ?? '')) return false;
      const index = Number(p.data.__index);
      const key = `${index}:${field}`;
      write(index, field, value).then(
        (r) => {
          setErrors(({ [key]: _gone, ...rest }) => rest);
          if (!r.status) return;
          const after = r.row[field] ?? null;
          useUndoStore.getState().push(undoId, {
            label: `edit of record ${index + 1} · ${field}`,
            undo: async () => {
              try {
                await write(index, field, old ?? '', after);
              } catch (e) {
                if (e instanceof ApiError && e.body.code === 'CONFLICT') return `${e.body.message}`;
                throw e;
              }
              return undefined;
            },
          });
          setNotice({
            kind: r.status === 'valid' ? 'info' : 'error',
            text: `Saved ${field} of record ${index + 1} — version ${r.version}, validation: ${r.status}`,
          });
        },
        (e) => {
          setErrors((x) => ({ ...x, [key]: errorText(e) }));
          setNotice({ kind: 'error', text: errorText(e) });
          apiRef.current?.refreshCells({ rowNodes: [p.node!], force: true });
        },
      );
      return false; // the row updates from the server's answer, never optimistically
    };
    const invalid = (field: string) => (p: { data?: Row }) =>
      !!p.data && !!errorsRef.current[`${p.data.__index}:${field}`];
    return [
      {
        headerName: '#',
        colId: '__index',
        valueGetter: (p) => (p.data ? Number(p.data.__index) + 1 : ''),
        width: 60,
        editable: false,
        pinned: 'left',
      },
      ...data.columns.map(
        (c): ColDef<Row> => ({
          field: c.name,
          colId: c.name,
          headerName: `${c.name}${c.required || c.key ? ' *' : ''}`,
          headerTooltip:
            `${TYPE_HINT[c.type]}${c.key ? ', unique key' : ''}${c.required ? ', required' : ''}` +
            `${c.min !== undefined ? `, ≥ ${c.min}` : ''}${c.values ? `: ${c.values.join(', ')}` : ''}`,
          pinned: c.key ? 'left' : undefined,
          editable: true,
          valueGetter: (p) => p.data?.[c.name],
          valueFormatter: (p) => show(p.value as string | undefined),
          valueSetter: setter(c),
          ...(c.type === 'enum' || c.type === 'boolean'
            ? {
                cellEditor: SelectEditor,
                cellEditorParams: { values: c.type === 'boolean' ? ['true', 'false'] : c.values },
              }
            : { cellEditorParams: { useFormatter: true } }),
          comparator:
            c.type === 'enum' && c.values
              ? (a: string, b: string) => c.values!.indexOf(show(a)) - c.values!.indexOf(show(b))
              : undefined,
          tooltipValueGetter: (p) =>
            (p.data && errorsRef.current[`${p.data.__index}:${c.name}`]) || show(p.value as string),
          cellClassRules: { ...range.classRules, 'cell-invalid': invalid(c.name) },
          type: c.type === 'integer' || c.type === 'number' ? 'rightAligned' : undefined,
          width: 160,
        }),
      ),
    ];
  }, [data, write, range.classRules, undoId]);

  useGridKeys({ z: () => void undoLast(undoId).then((n) => (setNotice(n), load())) });

  const onCopy = (e: React.ClipboardEvent) => {
    const b = range.bounds();
    if (!b || !isMulti(b) || !data) return;
    e.preventDefault();
    const rows: Row[] = [];
    for (let i = b.top; i <= b.bottom; i++) {
      const d = apiRef.current?.getDisplayedRowAtIndex(i)?.data;
      if (d) rows.push(d);
    }
    const text = rangeTsv(b, rows, (r, c) => (c === '__index' ? String(Number(r.__index) + 1) : show(r[c])));
    e.clipboardData.setData('text/plain', text);
    setNotice({ kind: 'info', text: `Copied ${rows.length} row(s) as TSV` });
  };

  return (
    <div className="fixture">
      <p className="hint">
        {source} · {data?.rows.length ?? '…'} records · type or double-click to edit; * = required · hover a header for
        its type · Ctrl+Z undoes
        {undo.length ? ` (${undo.at(-1)!.label})` : ''}
      </p>
      <div className="fixture-grid" data-testid="fixture-grid" onCopy={onCopy}>
        {data && (
          <AgGridReact<Row>
            theme={smallGridTheme}
            rowData={data.rows}
            columnDefs={columns}
            defaultColDef={{ sortable: true, resizable: true }}
            getRowId={(p) => p.data.__index}
            onGridReady={(e) => (apiRef.current = e.api)}
            tooltipShowDelay={300}
            stopEditingWhenCellsLoseFocus
            enterNavigatesVertically
            enterNavigatesVerticallyAfterEdit
            {...range.props}
          />
        )}
      </div>
      <StatusBar
        total={data?.rows.length ?? null}
        unfiltered={null}
        filtered={false}
        selected={0}
        cells={range.cells}
        notice={notice}
        onDismiss={() => setNotice(null)}
        noun="records"
        testId="fixture-notice"
      />
    </div>
  );
}
