import { SLOT_FIELDS, type Slot, type SlotField, SlotFields, SlotInput } from '../../../shared/contract/entities/slot';
import type { Issue } from '../../../shared/contract';
import { slotsRepo, slotsWriter } from './slots.repo';
import { prepareCached, type ReadDb, type WriteDb } from '../db/sqlite';
import { compileWhere, type GridFilter } from '../db/sql-filter';
import { csvLine, parseCsv } from '../lib/csv';
import { AppError } from '../lib/errors';
import { SLOT_COLUMNS, SLOT_TABLE } from './slots.repo';

/** The plan's CSV columns, in order: the slot's id, then every editable field. */
export const CSV_COLUMNS = ['id', ...SLOT_FIELDS] as const;
type CsvColumn = (typeof CSV_COLUMNS)[number];
const REQUIRED: readonly SlotField[] = SLOT_FIELDS.filter((f) => f !== 'target_count' && f !== 'notes');

const cell = (s: Slot, c: CsvColumn): string | number => (c === 'services' ? s.services.join(', ') : s[c]);

/**
 * One page of the plan as CSV, in id order, resuming after `afterId` (keyset paging: a page costs
 * the same at the end of a million slots as at the start). The header comes with the first page.
 */
export function exportCsvPage(db: ReadDb, f: GridFilter, afterId: number, limit: number) {
  const where = compileWhere(f, SLOT_COLUMNS, SLOT_TABLE.search);
  const sql = `SELECT id FROM coverage_slots ${where.sql ? `${where.sql} AND` : 'WHERE'} id > ? ORDER BY id LIMIT ?`;
  const ids = (prepareCached(db, sql).all(...where.params, afterId, limit) as { id: number }[]).map((r) => r.id);
  const repo = slotsRepo(db);
  let csv = afterId === 0 ? csvLine(CSV_COLUMNS) : '';
  for (const id of ids) {
    const s = repo.get(id)!;
    csv += csvLine(CSV_COLUMNS.map((c) => cell(s, c)));
  }
  return { csv, rows: ids.length, nextAfterId: ids.length === limit ? ids.at(-1)! : null };
}

type Prepared = { line: number; id: number | null; values: Record<SlotField, unknown> };

/**
 * Imports plan rows from CSV text, all or nothing. The header names the columns (any order, any
 * case; `id`, `target_count` and `notes` may be left out). A row with an id that exists updates
 * that slot; a row with an id the workspace lacks is added with that id (a plan exported from one
 * workspace arrives with its ids in another); a row without an id is added. Every problem is
 * named `file:line: field: message`; one problem writes nothing.
 */
export function importCsv(db: WriteDb, file: string, text: string, now: string) {
  const issues: Issue[] = [];
  const problem = (line: number, field: string, message: string) => {
    const named = !field || message.startsWith(`${field}:`); // some field schemas name themselves already
    issues.push({ path: [file, line, field], message: `${file}:${line}: ${named ? '' : `${field}: `}${message}` });
  };
  const fail = () => {
    const first = issues[0]!;
    return new AppError(
      'INVALID_INPUT',
      `${issues.length} problem${issues.length > 1 ? 's' : ''} in ${file}; nothing was imported ` +
        `(first: ${first.message})`,
      issues.slice(0, 500),
    );
  };

  const parsed = parseCsv(text);
  if ('problem' in parsed) {
    problem(parsed.problem.line, '', parsed.problem.message);
    throw fail();
  }
  const [header, ...rows] = parsed.records;
  if (!header) {
    problem(1, '', `the file is empty; expected a header: ${CSV_COLUMNS.join(',')}`);
    throw fail();
  }
  const columns = header.fields.map((h) => h.trim().toLowerCase());
  columns.forEach((c, i) => {
    if (!(CSV_COLUMNS as readonly string[]).includes(c))
      problem(header.line, c || `column ${i + 1}`, `unknown column; the plan's columns are ${CSV_COLUMNS.join(', ')}`);
    else if (columns.indexOf(c) !== i) problem(header.line, c, 'the column is given twice');
  });
  for (const r of REQUIRED) if (!columns.includes(r)) problem(header.line, r, 'missing column');
  if (issues.length) throw fail();

  const repo = slotsRepo(db);
  const seen = new Map<number, number>();
  const prepared: Prepared[] = [];
  for (const row of rows) {
    if (row.fields.length !== columns.length) {
      problem(row.line, '', `${row.fields.length} fields; the header has ${columns.length}`);
      continue;
    }
    const raw = Object.fromEntries(columns.map((c, i) => [c, row.fields[i]!])) as Record<CsvColumn, string>;
    let id: number | null = null;
    if (raw.id?.trim()) {
      const n = Number(raw.id.trim());
      if (!Number.isInteger(n) || n < 1) problem(row.line, 'id', `"${raw.id}" is not a slot id (a whole number ≥ 1)`);
      else if (seen.has(n)) problem(row.line, 'id', `slot ${n} is given twice (first on line ${seen.get(n)})`);
      else (id = n), seen.set(n, row.line);
    }
    const values = {} as Record<SlotField, unknown>;
    for (const f of SLOT_FIELDS) {
      if (!(f in raw)) continue;
      const r = SlotFields[f].safeParse(raw[f]);
      if (r.success) values[f] = r.data;
      else for (const i of r.error.issues) problem(row.line, f, i.message);
    }
    prepared.push({ line: row.line, id, values });
  }
  if (issues.length) throw fail();

  const write = slotsWriter(db);
  const created: number[] = [];
  const updated: number[] = [];
  // Rows with ids first, so an id the file names is never taken by a row that lets SQLite choose.
  for (const p of [...prepared.filter((x) => x.id !== null), ...prepared.filter((x) => x.id === null)]) {
    if (p.id !== null && repo.get(p.id)) {
      for (const [f, v] of Object.entries(p.values)) write.setField(p.id, f as SlotField, v, now);
      updated.push(p.id);
    } else {
      const slot = SlotInput.parse(p.values); // every required column is there and each cell parsed above
      created.push(write.insertOnly({ ...slot, ...(p.id !== null ? { id: p.id } : {}) }, now));
    }
  }
  return { created: created.length, updated: updated.length, ids: [...created, ...updated] };
}
