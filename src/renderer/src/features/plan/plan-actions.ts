import { SLOT_FIELDS, type Slot, type SlotField } from '../../../../shared/contract/entities/slot';
import { call, errorText } from '../../api/client';
import { cellText, rangeTsv } from '../../grids/clipboard';
import { matchHeader, rowLabel } from '../../grids/paste-header';
import { fillDown as rangeFill, isMulti } from '../../grids/range';
import { useUndoStore } from '../../grids/undo';
import type { ServerGrid } from '../../grids/use-server-grid';
import { EDITABLE_FIELDS, HEADERS } from '../../grids/plan.columns';
import { parseTsv, toTsv } from '../../lib/tsv';
import { usePlanStore } from '../../stores/plan.store';

export const PLAN_GRID = 'plan';
type Grid = ServerGrid<'plan.list', number>;
type Change = { id: number; field: SlotField; before: unknown; after: unknown };

const store = () => usePlanStore.getState();
const push = (label: string, undo: () => Promise<string | undefined>) =>
  useUndoStore.getState().push(PLAN_GRID, { label, undo });
const fail = (err: unknown) => store().notify({ kind: 'error', text: `${errorText(err)} — nothing was written` });

/** Puts cells back to `before` unless another writer changed them since: those are skipped and named. */
async function revertChanges(changes: Change[]): Promise<string | undefined> {
  if (!changes.length) return undefined;
  const { skipped } = await call('plan.update', {
    edits: changes.map((c) => ({ id: c.id, field: c.field, value: c.before, expected: c.after })),
  });
  if (!skipped.length) return undefined;
  const names = skipped
    .slice(0, 3)
    .map(
      (s) =>
        `slot ${s.id} · ${HEADERS[s.field]} (${s.reason === 'deleted' ? 'deleted' : `now ${cellText(s.current)}`})`,
    );
  return `${skipped.length} cell(s) changed by another writer since were left as they are: ${names.join('; ')}`;
}

/** A new slot's values: a plausible row the user then edits in place. */
export function blankSlot(today: string) {
  return {
    family: 'new-slot',
    services: ['gmail' as const],
    category: 'communication',
    difficulty: 'easy' as const,
    language: 'en' as const,
    reference_date: today,
    scenario: 'single_service' as const,
    target_count: 1,
    notes: '',
  };
}

export async function addSlot(g: Grid): Promise<void> {
  try {
    const { slots } = await call('plan.create', { rows: [blankSlot(new Date().toISOString().slice(0, 10))] });
    const ids = slots.map((s) => s.id);
    push('add slot', async () => void (await call('plan.delete', { ids })));
    store().notify({ kind: 'info', text: `Added slot ${slots[0]!.id}` });
    g.refresh();
  } catch (err) {
    fail(err);
  }
}

export async function deleteSelected(g: Grid): Promise<void> {
  const ids = g.selectedIds();
  if (!ids.length) return store().notify({ kind: 'info', text: 'Select rows (checkbox column) to delete them' });
  try {
    const { deleted } = await call('plan.delete', { ids });
    push(`delete ${deleted.length} slot(s)`, async () => void (await call('plan.restore', { slots: deleted })));
    store().notify({ kind: 'info', text: `Deleted ${deleted.length} slot(s) — Ctrl+Z undoes` });
    g.clearSelection();
    g.refresh();
  } catch (err) {
    fail(err);
  }
}

/** Deletes every slot matching the filter (after the user confirmed the count); undo restores the batch. */
export async function deleteMatching(g: Grid, confirm: (count: number) => boolean): Promise<void> {
  const f = g.filter();
  if (!f.filters.length && !f.quick)
    return store().notify({ kind: 'info', text: 'Filter the grid first: delete by filter removes the rows it shows' });
  if (g.total === null || !confirm(g.total)) return;
  try {
    const { batch, deleted } = await call('plan.deleteWhere', f);
    push(`delete of ${deleted} matching slot(s)`, async () => {
      const r = await call('plan.restoreDeleted', { batch });
      return r.conflicts ? `${r.conflicts} slot(s) not restored: their ids were taken since` : undefined;
    });
    store().notify({
      kind: 'info',
      text: `Deleted ${deleted.toLocaleString('en-US')} slot(s) matching the filter — Ctrl+Z undoes`,
    });
    g.clearSelection();
    g.refresh();
  } catch (err) {
    fail(err);
  }
}

/** Writes one cell (already validated client-side); on failure the cell shows the server's message. */
export async function saveCell(g: Grid, id: number, field: SlotField, value: unknown): Promise<boolean> {
  try {
    const { changes } = await call('plan.update', { edits: [{ id, field, value }] });
    push(`edit ${field} of slot ${id}`, () => revertChanges(changes));
    store().setCellError(id, field, null);
    store().notify({ kind: 'info', text: `Saved ${field} of slot ${id}` });
    return true;
  } catch (err) {
    store().setCellError(id, field, errorText(err));
    fail(err);
    g.refresh();
    return false;
  }
}

const slotText = (s: Slot, f: string) => cellText((s as Record<string, unknown>)[f]);

/**
 * Copy: a cell range as TSV; else the checked rows with a header row; else the focused cell.
 * Answers at once when the rows are loaded; a range reaching unloaded rows answers a promise.
 */
export function copyText(g: Grid): string | undefined | Promise<string> {
  const b = g.range.bounds();
  if (b && isMulti(b)) {
    const loaded = g.loadedRows(b.top, b.bottom);
    return loaded
      ? rangeTsv(b, loaded, slotText)
      : g.rowsAt(b.top, b.bottom).then((rows) => rangeTsv(b, rows, slotText));
  }
  const api = g.api();
  if (!api) return undefined;
  const rows: Slot[] = [];
  api.forEachNode((n) => n.data && n.isSelected() && rows.push(n.data));
  if (rows.length) {
    const cols: (SlotField | 'id')[] = ['id', ...EDITABLE_FIELDS];
    return toTsv([cols, ...rows.sort((a, b) => a.id - b.id).map((s) => cols.map((c) => slotText(s, c)))]);
  }
  const cell = api.getFocusedCell();
  const node = cell ? api.getDisplayedRowAtIndex(cell.rowIndex) : undefined;
  return node?.data && cell ? slotText(node.data, cell.column.getColId()) : undefined;
}

/** The fields a new slot cannot do without (SlotInput's required ones). */
const NEW_SLOT_FIELDS: readonly SlotField[] = [
  'family',
  'services',
  'category',
  'difficulty',
  'language',
  'reference_date',
  'scenario',
];

const headerField = (h: string): SlotField | 'id' | undefined => {
  const k = h.trim().toLowerCase();
  if (k === 'id') return 'id';
  return SLOT_FIELDS.find((f) => f === k.replace(/\s+/g, '_') || HEADERS[f].toLowerCase() === k);
};

/**
 * Paste TSV. With a header row (our copy, or a sheet whose first row names most columns), known
 * columns are mapped and unknown ones named and skipped; rows with an id update those slots; a block
 * without ids or the fields a new slot needs updates the rows from the focused one down; else rows
 * are created. Without one, cells land from the focused cell rightwards and downwards; rows past
 * the last one become new slots. All-or-nothing; errors name 1-based rows as the sheet shows them.
 */
export async function pasteTsv(g: Grid, text: string): Promise<void> {
  const table = parseTsv(text).filter((r) => r.some((c) => c.trim() !== ''));
  if (!table.length) return;
  const header = matchHeader(table[0]!, headerField);
  type Row = { id?: number; values: Record<string, string> };
  let rows: Row[];
  if (header) {
    // A block with neither an id column nor every field a new slot needs can only be an update: it
    // updates the rows from the focused one down, as a header-less block does (it used to add every
    // row as a new, incomplete slot). A block with all of them (a sheet of new slots) still adds rows.
    const api = g.api();
    const complete = NEW_SLOT_FIELDS.every((f) => header.fields.includes(f));
    const focus = header.fields.includes('id') || complete ? null : api?.getFocusedCell();
    rows = table.slice(1).map((cells, i) => {
      const node = focus ? api?.getDisplayedRowAtIndex(focus.rowIndex + i) : undefined;
      const r: Row = node?.data ? { id: node.data.id, values: {} } : { values: {} };
      header.fields.forEach((f, i) => {
        const v = cells[i] ?? '';
        if (f === 'id') {
          if (v.trim()) r.id = Number(v);
        } else if (f) r.values[f] = v;
      });
      return r;
    });
  } else {
    const api = g.api();
    const focus = api?.getFocusedCell();
    const startField = focus?.column.getColId() as SlotField | undefined;
    const startCol = Math.max(0, startField ? EDITABLE_FIELDS.indexOf(startField) : 0);
    const startRow = focus?.rowIndex ?? g.total ?? 0;
    rows = table.map((cells, i) => {
      const node = api?.getDisplayedRowAtIndex(startRow + i);
      const values = Object.fromEntries(
        cells.slice(0, EDITABLE_FIELDS.length - startCol).map((v, j) => [EDITABLE_FIELDS[startCol + j]!, v]),
      );
      return node?.data ? { id: node.data.id, values } : { values };
    });
  }
  const skippedCols = header?.unknown.length
    ? ` · skipped unknown column${header.unknown.length > 1 ? 's' : ''} ` +
      `${header.unknown.map((u) => `“${u.name}” (column ${u.column})`).join(', ')}`
    : '';
  try {
    const { created, updated } = await call('plan.paste', { rows });
    const changes: Change[] = updated.flatMap(({ before, after }) =>
      EDITABLE_FIELDS.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f])).map((f) => ({
        id: before.id,
        field: f,
        before: before[f],
        after: after[f],
      })),
    );
    const createdIds = created.map((s) => s.id);
    push(`paste of ${rows.length} row(s)`, async () => {
      if (createdIds.length) await call('plan.delete', { ids: createdIds });
      return revertChanges(changes);
    });
    store().notify({
      kind: 'info',
      text:
        `Pasted ${rows.length} row(s): ${created.length} new, ${updated.length} updated${skippedCols} — Ctrl+Z ` +
        `undoes`,
    });
    g.refresh();
  } catch (err) {
    // The core names rows by index (rows.3.target_count): say "row 5", as the sheet numbers it.
    const text = errorText(err).replace(/\brows\.(\d+)\./g, (_m, i) => `${rowLabel(Number(i), !!header)} · `);
    store().notify({ kind: 'error', text: `${text}${skippedCols} — nothing was written` });
  }
}

/**
 * Fill down: over a range, each column's top value into the rows below; else the focused value into the checked rows.
 */
export async function fillDown(g: Grid): Promise<void> {
  const b = g.range.bounds();
  let edits: { id: number; field: SlotField; value: unknown }[] = [];
  if (b && b.bottom > b.top) {
    const rows = await g.rowsAt(b.top, b.bottom);
    const cols = { ...b, cols: b.cols.filter((c) => EDITABLE_FIELDS.includes(c as SlotField)) };
    edits = rangeFill(cols, (r, c) => (rows[r - b.top] as Record<string, unknown> | undefined)?.[c]).map((x) => ({
      id: rows[x.row - b.top]!.id,
      field: x.col as SlotField,
      value: x.value,
    }));
  } else {
    const api = g.api();
    const cell = api?.getFocusedCell();
    const source = cell ? api?.getDisplayedRowAtIndex(cell.rowIndex)?.data : undefined;
    const field = cell?.column.getColId() as SlotField | undefined;
    if (!source || !field || !EDITABLE_FIELDS.includes(field))
      return store().notify({
        kind: 'info',
        text: 'Fill down: select a range (drag or Shift+arrows), or focus a cell and check rows, then Ctrl+D',
      });
    edits = g
      .selectedIds()
      .filter((id) => id !== source.id)
      .map((id) => ({ id, field, value: source[field] }));
  }
  if (!edits.length) return store().notify({ kind: 'info', text: 'Fill down: nothing to change' });
  try {
    const { changes } = await call('plan.update', { edits });
    push(`fill down of ${changes.length} cell(s)`, () => revertChanges(changes));
    store().notify({ kind: 'info', text: `Filled ${changes.length} cell(s) — Ctrl+Z undoes` });
    g.refresh();
  } catch (err) {
    fail(err);
  }
}
