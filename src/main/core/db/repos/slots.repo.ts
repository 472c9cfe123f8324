import { Slot } from '../../../../shared/contract/entities/slot';
import type { SlotField } from '../../../../shared/contract/entities/slot';
import type Database from 'better-sqlite3';
import type { Db } from '../sqlite';
import { compilePage, type ColumnMap, type PageQuery } from '../sql-filter';

/** Row as stored: services is JSON text. When adding a column, update SlotFields, the migration and this map. */
type SlotRow = Omit<Slot, 'services'> & { services: string };

export const SLOT_COLUMNS: ColumnMap = {
  id: { sql: 'id', kind: 'number' },
  family: { sql: 'family', kind: 'text' },
  services: { sql: 'services', kind: 'text' },
  category: { sql: 'category', kind: 'text' },
  difficulty: { sql: 'difficulty', kind: 'text' },
  language: { sql: 'language', kind: 'text' },
  reference_date: { sql: 'reference_date', kind: 'text' },
  scenario: { sql: 'scenario', kind: 'text' },
  target_count: { sql: 'target_count', kind: 'number' },
  updated_at: { sql: 'updated_at', kind: 'text' },
};

const COLS = 'id, family, services, category, difficulty, language, reference_date, scenario, target_count, notes, created_at, updated_at';

/** JSON columns are parsed with zod on read: a hand-edited or damaged row fails loudly, not in the UI. */
const toSlot = (r: SlotRow): Slot => Slot.parse({ ...r, services: JSON.parse(r.services) });

export type NewSlot = Omit<Slot, 'id' | 'created_at' | 'updated_at'>;

export function slotsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO coverage_slots (${COLS}) VALUES (@id, @family, @services, @category, @difficulty, @language, @reference_date, @scenario, @target_count, @notes, @created_at, @updated_at)`,
  );
  const byId = db.prepare(`SELECT ${COLS} FROM coverage_slots WHERE id = ?`);
  const del = db.prepare('DELETE FROM coverage_slots WHERE id = ?');
  const fieldUpdates = new Map<string, Database.Statement<unknown[]>>();

  return {
    list(q: PageQuery): { rows: Slot[]; total: number } {
      const { where, orderBy } = compilePage(q, SLOT_COLUMNS);
      const rows = db.prepare<unknown[]>(`SELECT ${COLS} FROM coverage_slots ${where.sql} ${orderBy} LIMIT ? OFFSET ?`).all(...where.params, q.limit, q.offset) as SlotRow[];
      const total = (db.prepare<unknown[]>(`SELECT count(*) AS n FROM coverage_slots ${where.sql}`).get(...where.params) as { n: number }).n;
      return { rows: rows.map(toSlot), total };
    },
    get(id: number): Slot | undefined {
      const r = byId.get(id) as SlotRow | undefined;
      return r ? toSlot(r) : undefined;
    },
    /** id null lets SQLite choose the next id; an explicit id restores a deleted row. */
    insert(s: NewSlot & { id?: number | null }, now: string, createdAt = now): Slot {
      return this.get(this.insertOnly(s, now, createdAt))!;
    },
    /** For bulk jobs: no read-back. */
    insertOnly(s: NewSlot & { id?: number | null }, now: string, createdAt = now): number {
      const info = insert.run({ ...s, id: s.id ?? null, services: JSON.stringify(s.services), created_at: createdAt, updated_at: now });
      return Number(info.lastInsertRowid);
    },
    setField(id: number, field: SlotField, value: unknown, now: string): void {
      let stmt = fieldUpdates.get(field);
      if (!stmt) {
        // field comes from the contract's enum (SlotFieldName), never from free text.
        stmt = db.prepare<unknown[]>(`UPDATE coverage_slots SET ${field} = ?, updated_at = ? WHERE id = ?`);
        fieldUpdates.set(field, stmt);
      }
      stmt.run(field === 'services' ? JSON.stringify(value) : value, now, id);
    },
    delete(id: number): void {
      del.run(id);
    },
    count(): number {
      return (db.prepare('SELECT count(*) AS n FROM coverage_slots').get() as { n: number }).n;
    },
    stats() {
      const totals = db.prepare('SELECT count(*) AS slots, coalesce(sum(target_count), 0) AS planned FROM coverage_slots').get() as { slots: number; planned: number };
      const group = (col: 'difficulty' | 'language') =>
        Object.fromEntries((db.prepare(`SELECT ${col} AS k, sum(target_count) AS n FROM coverage_slots GROUP BY ${col}`).all() as { k: string; n: number }[]).map((r) => [r.k, r.n]));
      const byService = Object.fromEntries(
        (db.prepare('SELECT j.value AS k, sum(s.target_count) AS n FROM coverage_slots s, json_each(s.services) j GROUP BY j.value').all() as { k: string; n: number }[]).map((r) => [r.k, r.n]),
      );
      return { slots: totals.slots, plannedTasks: totals.planned, byService, byDifficulty: group('difficulty'), byLanguage: group('language') };
    },
  };
}
export type SlotsRepo = ReturnType<typeof slotsRepo>;
