import type { GridApi } from 'ag-grid-community';
import { SLOT_FIELDS, type Slot, type SlotField } from '../../../../shared/contract/entities/slot';
import { call, errorText } from '../../api/client';
import { EDITABLE_FIELDS, HEADERS } from '../../grids/plan.columns';
import { parseTsv, toTsv } from '../../lib/tsv';
import { usePlanStore, type UndoEntry } from '../../stores/plan.store';

const store = () => usePlanStore.getState();
const fail = (err: unknown) => store().notify({ kind: 'error', text: `${errorText(err)} — nothing was written` });

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

export async function addSlot(api: GridApi<Slot>): Promise<void> {
  try {
    const { slots } = await call('plan.create', { rows: [blankSlot(new Date().toISOString().slice(0, 10))] });
    store().push({ kind: 'create', label: 'add slot', ids: slots.map((s) => s.id) });
    store().notify({ kind: 'info', text: `Added slot ${slots[0]!.id}` });
    api.refreshInfiniteCache();
  } catch (err) {
    fail(err);
  }
}

export async function deleteSelected(api: GridApi<Slot>): Promise<void> {
  const ids = store().selectedIds;
  if (!ids.length) return store().notify({ kind: 'info', text: 'Select rows (checkbox column) to delete them' });
  try {
    const { deleted } = await call('plan.delete', { ids });
    store().push({ kind: 'delete', label: `delete ${deleted.length} slot(s)`, slots: deleted });
    store().notify({ kind: 'info', text: `Deleted ${deleted.length} slot(s) — Ctrl+Z undoes` });
    api.deselectAll();
    api.refreshInfiniteCache();
  } catch (err) {
    fail(err);
  }
}

/** Writes one cell (already validated client-side); on failure the cell shows the server's message. */
export async function saveCell(api: GridApi<Slot>, id: number, field: SlotField, value: unknown): Promise<boolean> {
  try {
    const { changes } = await call('plan.update', { edits: [{ id, field, value }] });
    store().push({
      kind: 'update',
      label: `edit ${field} of slot ${id}`,
      changes: changes.map((c) => ({ id: c.id, field: c.field, before: c.before })),
    });
    store().setCellError(id, field, null);
    store().notify({ kind: 'info', text: `Saved ${field} of slot ${id}` });
    return true;
  } catch (err) {
    store().setCellError(id, field, errorText(err));
    fail(err);
    api.refreshInfiniteCache();
    return false;
  }
}

export async function undoLast(api: GridApi<Slot>): Promise<void> {
  const entry = store().pop();
  if (!entry) return store().notify({ kind: 'info', text: 'Nothing to undo' });
  try {
    await invert(entry);
    store().notify({ kind: 'info', text: `Undid ${entry.label}` });
    api.refreshInfiniteCache();
  } catch (err) {
    store().push(entry);
    fail(err);
  }
}

async function invert(e: UndoEntry): Promise<void> {
  if (e.kind === 'update')
    await call('plan.update', { edits: e.changes.map((c) => ({ id: c.id, field: c.field, value: c.before })) });
  else if (e.kind === 'create') await call('plan.delete', { ids: e.ids });
  else if (e.kind === 'delete') await call('plan.restore', { slots: e.slots });
  else {
    if (e.createdIds.length) await call('plan.delete', { ids: e.createdIds });
    if (e.before.length)
      await call('plan.paste', {
        rows: e.before.map((s) => ({ id: s.id, values: Object.fromEntries(EDITABLE_FIELDS.map((f) => [f, s[f]])) })),
      });
  }
}

/** Copy: the selected rows (with a header row) or else the focused cell, as TSV. */
export function copyText(api: GridApi<Slot>): string | undefined {
  const rows: Slot[] = [];
  api.forEachNode((n) => n.data && n.isSelected() && rows.push(n.data));
  const cellText = (s: Slot, f: SlotField | 'id') => (f === 'services' ? s.services.join(', ') : String(s[f]));
  if (rows.length) {
    const cols: (SlotField | 'id')[] = ['id', ...EDITABLE_FIELDS];
    return toTsv([cols, ...rows.sort((a, b) => a.id - b.id).map((s) => cols.map((c) => cellText(s, c)))]);
  }
  const cell = api.getFocusedCell();
  const node = cell ? api.getDisplayedRowAtIndex(cell.rowIndex) : undefined;
  const field = cell?.column.getColDef().field as SlotField | 'id' | undefined;
  return node?.data && field ? cellText(node.data, field) : undefined;
}

const headerField = (h: string): SlotField | 'id' | undefined => {
  const k = h.trim().toLowerCase();
  if (k === 'id') return 'id';
  return SLOT_FIELDS.find((f) => f === k.replace(/\s+/g, '_') || HEADERS[f].toLowerCase() === k);
};

/**
 * Paste TSV. With a header row (our copy, or a sheet whose first row names fields), rows with an
 * id update those slots and others are created. Without one, cells land from the focused cell
 * rightwards and downwards; rows past the last one become new slots. All-or-nothing.
 */
export async function pasteTsv(api: GridApi<Slot>, text: string): Promise<void> {
  const table = parseTsv(text).filter((r) => r.some((c) => c.trim() !== ''));
  if (!table.length) return;
  const header = table[0]!.map(headerField);
  const hasHeader = header.every((h) => h !== undefined) && header.length > 1;
  type Row = { id?: number; values: Record<string, string> };
  let rows: Row[];
  if (hasHeader) {
    rows = table.slice(1).map((cells) => {
      const r: Row = { values: {} };
      header.forEach((f, i) => {
        const v = cells[i] ?? '';
        if (f === 'id') {
          if (v.trim()) r.id = Number(v);
        } else r.values[f!] = v;
      });
      return r;
    });
  } else {
    const focus = api.getFocusedCell();
    const startField = focus?.column.getColDef().field as SlotField | undefined;
    const startCol = Math.max(0, startField ? EDITABLE_FIELDS.indexOf(startField) : 0);
    const startRow = focus?.rowIndex ?? store().total ?? 0;
    rows = table.map((cells, i) => {
      const node = api.getDisplayedRowAtIndex(startRow + i);
      const values = Object.fromEntries(
        cells.slice(0, EDITABLE_FIELDS.length - startCol).map((v, j) => [EDITABLE_FIELDS[startCol + j]!, v]),
      );
      return node?.data ? { id: node.data.id, values } : { values };
    });
  }
  try {
    const { created, updated } = await call('plan.paste', { rows });
    store().push({
      kind: 'paste',
      label: `paste of ${rows.length} row(s)`,
      createdIds: created.map((s) => s.id),
      before: updated.map((u) => u.before),
    });
    store().notify({
      kind: 'info',
      text: `Pasted ${rows.length} row(s): ${created.length} new, ${updated.length} updated — Ctrl+Z undoes`,
    });
    api.refreshInfiniteCache();
  } catch (err) {
    fail(err);
  }
}

/** Fill down: the focused cell's value into the same column of every selected row. */
export async function fillDown(api: GridApi<Slot>): Promise<void> {
  const cell = api.getFocusedCell();
  const source = cell ? api.getDisplayedRowAtIndex(cell.rowIndex)?.data : undefined;
  const field = cell?.column.getColDef().field as SlotField | undefined;
  const targets = store().selectedIds.filter((id) => id !== source?.id);
  if (!source || !field || !EDITABLE_FIELDS.includes(field))
    return store().notify({
      kind: 'info',
      text: 'Fill down: focus an editable cell, select the rows to fill, then Ctrl+D',
    });
  if (!targets.length)
    return store().notify({ kind: 'info', text: 'Fill down: select the rows to fill (checkbox column)' });
  try {
    const { changes } = await call('plan.update', {
      edits: targets.map((id) => ({ id, field, value: source[field] })),
    });
    store().push({
      kind: 'update',
      label: `fill down of ${field}`,
      changes: changes.map((c) => ({ id: c.id, field: c.field, before: c.before })),
    });
    store().notify({ kind: 'info', text: `Filled ${field} into ${targets.length} row(s)` });
    api.refreshInfiniteCache();
  } catch (err) {
    fail(err);
  }
}
