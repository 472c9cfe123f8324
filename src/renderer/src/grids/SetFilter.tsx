import type { CustomFilterProps } from 'ag-grid-react';
import { useGridFilter } from 'ag-grid-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ValuesOutput } from '../../../shared/contract/entities/grid-query';

export type SetFilterModel = { filterType: 'set'; values: (string | number)[] };
type Ctx = { values(field: string): Promise<ValuesOutput> };

/**
 * Filter params (ColDef.filterParams reach the filter as props): `format` shows a stored value as the
 * column's cells show it — a boolean comes from SQL as 0/1 and its cells say yes/no.
 */
export type SetFilterParams = { format?: (value: string | number) => string };

/** A yes/no column's cells and set filter: the same words for the same values. */
export const yesNo = (v: unknown): string => (v === null || v === undefined || v === '' ? '' : v ? 'yes' : 'no');
export const yesNoSet = { filter: SetFilter, filterParams: { format: yesNo } satisfies SetFilterParams };

/**
 * Excel's checkbox filter for list and enum columns: every distinct value with its count (from SQL,
 * under the other filters), a search box over the list, select all / none. Unchecking everything
 * is "no filter". The model ({filterType: 'set', values}) becomes an `in` condition in SQL.
 */
export function SetFilter(props: CustomFilterProps<unknown, Ctx, SetFilterModel> & SetFilterParams) {
  const { model, onModelChange, context, column, format } = props;
  const label = (v: string | number) => (v === '' ? '(blank)' : (format?.(v) ?? String(v)));
  const field = column.getColId();
  const [list, setList] = useState<ValuesOutput | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const doesFilterPass = useCallback(() => true, []); // the server filters; the client never does
  useGridFilter({ doesFilterPass, afterGuiAttached: () => void load() });

  const load = useCallback(() => {
    context.values(field).then(setList, (e: Error) => setError(e.message));
  }, [context, field]);
  useEffect(load, [load]);

  const checked = useMemo(() => new Set(model?.values ?? list?.values.map((v) => v.value) ?? []), [model, list]);
  const shown = (list?.values ?? []).filter((v) => label(v.value).toLowerCase().includes(search.toLowerCase()));
  const set = (values: (string | number)[]) => {
    const everything = list && values.length === list.values.length;
    onModelChange(everything || values.length === 0 ? null : { filterType: 'set', values });
  };
  const toggle = (v: string | number) => {
    const next = new Set(checked);
    if (next.has(v)) next.delete(v);
    else next.add(v);
    set((list?.values ?? []).map((x) => x.value).filter((x) => next.has(x)));
  };

  return (
    <div className="set-filter" data-testid={`set-filter-${field}`}>
      <input
        type="search"
        placeholder="Search values…"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        aria-label="Search values"
      />
      <div className="set-filter-actions">
        <button type="button" onClick={() => set(shown.map((v) => v.value))}>
          Only these
        </button>
        <button type="button" onClick={() => onModelChange(null)}>
          All
        </button>
      </div>
      {error && <p className="notice notice-error">{error}</p>}
      {!list && !error && <p className="hint">Loading values…</p>}
      <ul>
        {shown.map((v) => (
          <li key={String(v.value)}>
            <label className="set-option">
              <input type="checkbox" checked={model ? checked.has(v.value) : true} onChange={() => toggle(v.value)} />
              <span className="set-value">{label(v.value)}</span>
              <span className="set-count">{v.count.toLocaleString('en-US')}</span>
            </label>
          </li>
        ))}
      </ul>
      {list?.truncated && <p className="hint">Only the first {list.values.length} values are listed.</p>}
    </div>
  );
}
