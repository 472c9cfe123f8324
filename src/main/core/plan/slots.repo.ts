import { DIFFICULTIES, SCENARIOS, Slot } from '../../../shared/contract/entities/slot';
import type { SlotField } from '../../../shared/contract/entities/slot';
import { prepareCached, type ReadDb, type WriteDb } from '../db/sqlite';
import { pagedList, type PagedTable } from '../db/paged-list';
import { compileWhere, type ColumnMap, type GridFilter, type PageQuery } from '../db/sql-filter';

/** Row as stored: services is JSON text. When adding a column, update SlotFields, the migration and this map. */
type SlotRow = Omit<Slot, 'services'> & { services: string };

export const SLOT_COLUMNS: ColumnMap = {
  id: { sql: 'id', kind: 'number' },
  family: { sql: 'family', kind: 'text' },
  services: { sql: 'services', kind: 'list' },
  category: { sql: 'category', kind: 'text' },
  difficulty: { sql: 'difficulty', kind: 'text', selective: false, order: DIFFICULTIES },
  language: { sql: 'language', kind: 'text', selective: false },
  reference_date: { sql: 'reference_date', kind: 'text' },
  scenario: { sql: 'scenario', kind: 'text', selective: false, order: SCENARIOS },
  target_count: { sql: 'target_count', kind: 'number' },
  updated_at: { sql: 'updated_at', kind: 'text' },
};

const COLS =
  'id, family, services, category, difficulty, language, reference_date, scenario, target_count, notes, created_at, ' +
  'updated_at';

/** JSON columns are parsed with zod on read: a hand-edited or damaged row fails loudly, not in the UI. */
const toSlot = (r: SlotRow): Slot => Slot.parse({ ...r, services: JSON.parse(r.services) });

export type NewSlot = Omit<Slot, 'id' | 'created_at' | 'updated_at'>;

/** The plan grid's table for pagedList. */
export const SLOT_TABLE: PagedTable<Slot, SlotRow> = {
  table: 'coverage_slots',
  columns: SLOT_COLUMNS,
  pk: 'id',
  select: COLS,
  toRow: toSlot,
  search: { like: ['family', 'category', 'services', 'scenario', 'notes'] },
  // Set filter lists on a large plan read the facet counts (migration 0014) under filters on these columns.
  facets: {
    table: 'coverage_slot_facets',
    columns: ['difficulty', 'language', 'scenario', 'category', 'services'],
    count: 'n',
  },
};

export function slotsRepo(db: ReadDb) {
  // Statements come from the connection's cache: handlers call slotsRepo(db) on every request.
  const byId = prepareCached(db, `SELECT ${COLS} FROM coverage_slots WHERE id = ?`);
  return {
    list(q: PageQuery): { rows: Slot[]; total: number } {
      return pagedList(db, SLOT_TABLE, q);
    },
    get(id: number): Slot | undefined {
      const r = byId.get(id) as SlotRow | undefined;
      return r ? toSlot(r) : undefined;
    },
    count(): number {
      return (prepareCached(db, 'SELECT count(*) AS n FROM coverage_slots').get() as { n: number }).n;
    },
    /**
     * Sums read covering indexes (migration 0002); services are summed per distinct set, then split
     * here. Under a filter (the stats above the grid follow it) the same sums run over its matches.
     */
    stats(f: GridFilter = { filters: [] }) {
      const where = compileWhere(f, SLOT_COLUMNS, SLOT_TABLE.search);
      const totals = prepareCached(
        db,
        `SELECT count(*) AS slots, coalesce(sum(target_count), 0) AS planned FROM coverage_slots ${where.sql}`,
      ).get(...where.params) as { slots: number; planned: number };
      const group = (col: 'difficulty' | 'language' | 'services') =>
        prepareCached(
          db,
          `SELECT ${col} AS k, sum(target_count) AS n FROM coverage_slots ${where.sql} GROUP BY ${col}`,
        ).all(...where.params) as { k: string; n: number }[];
      const byService: Record<string, number> = {};
      for (const { k, n } of group('services'))
        for (const s of JSON.parse(k) as string[]) byService[s] = (byService[s] ?? 0) + n;
      const sorted = Object.fromEntries(Object.entries(byService).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      const byKey = (rows: { k: string; n: number }[]) => Object.fromEntries(rows.map((r) => [r.k, r.n]));
      return {
        slots: totals.slots,
        plannedTasks: totals.planned,
        byService: sorted,
        byDifficulty: byKey(group('difficulty')),
        byLanguage: byKey(group('language')),
      };
    },
  };
}

/**
 * Slot writes, inside the caller's transaction (a mutation or a job's batch). One row per statement,
 * written `OR FAIL`: the facet triggers (migration 0014) make each write a multi-row change, for
 * which SQLite keeps a statement journal (a copy of every page touched, to undo the statement
 * alone on an ABORT) — 2× the CPU of a slot INSERT. FAIL needs no journal; for one row it refuses
 * the same rows ABORT does, and a failure anywhere rolls the caller's whole transaction back.
 */
export function slotsWriter(db: WriteDb) {
  const insert = prepareCached(
    db,
    `INSERT OR FAIL INTO coverage_slots (${COLS}) VALUES (@id, @family, @services, @category, @difficulty, ` +
      `@language, @reference_date, @scenario, @target_count, @notes, @created_at, @updated_at)`,
  );
  return {
    /** id null lets SQLite choose the next id; an explicit id restores a deleted row. */
    insert(s: NewSlot & { id?: number | null }, now: string, createdAt = now): Slot {
      return slotsRepo(db).get(this.insertOnly(s, now, createdAt))!;
    },
    /** For bulk jobs: no read-back. */
    insertOnly(s: NewSlot & { id?: number | null }, now: string, createdAt = now): number {
      const info = insert.run({
        ...s,
        id: s.id ?? null,
        services: JSON.stringify(s.services),
        created_at: createdAt,
        updated_at: now,
      });
      return Number(info.lastInsertRowid);
    },
    setField(id: number, field: SlotField, value: unknown, now: string): void {
      // field comes from the contract's enum (SlotFieldName), never from free text.
      const stmt = prepareCached(db, `UPDATE OR FAIL coverage_slots SET ${field} = ?, updated_at = ? WHERE id = ?`);
      stmt.run(field === 'services' ? JSON.stringify(value) : value, now, id);
    },
    delete(id: number): void {
      prepareCached(db, 'DELETE FROM coverage_slots WHERE id = ?').run(id);
    },
  };
}
export type SlotsRepo = ReturnType<typeof slotsRepo>;
