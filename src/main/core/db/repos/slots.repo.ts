import { Slot } from '../../../../shared/contract/entities/slot';
import type { SlotField } from '../../../../shared/contract/entities/slot';
import { prepareCached, type ReadDb, type WriteDb } from '../sqlite';
import { compilePage, preferScan, type ColumnMap, type PageQuery } from '../sql-filter';

/** Row as stored: services is JSON text. When adding a column, update SlotFields, the migration and this map. */
type SlotRow = Omit<Slot, 'services'> & { services: string };

export const SLOT_COLUMNS: ColumnMap = {
  id: { sql: 'id', kind: 'number' },
  family: { sql: 'family', kind: 'text' },
  services: { sql: 'services', kind: 'text' },
  category: { sql: 'category', kind: 'text' },
  difficulty: { sql: 'difficulty', kind: 'text', selective: false },
  language: { sql: 'language', kind: 'text', selective: false },
  reference_date: { sql: 'reference_date', kind: 'text' },
  scenario: { sql: 'scenario', kind: 'text', selective: false },
  target_count: { sql: 'target_count', kind: 'number' },
  updated_at: { sql: 'updated_at', kind: 'text' },
};

const COLS =
  'id, family, services, category, difficulty, language, reference_date, scenario, target_count, notes, created_at, updated_at';

/** JSON columns are parsed with zod on read: a hand-edited or damaged row fails loudly, not in the UI. */
const toSlot = (r: SlotRow): Slot => Slot.parse({ ...r, services: JSON.parse(r.services) });

export type NewSlot = Omit<Slot, 'id' | 'created_at' | 'updated_at'>;

/**
 * The row query of a plan.list page, given how many rows match (`matched`) and how many the table
 * holds. Either SQLite walks the sort column's index, or (preferScan) it scans the table and sorts
 * the matches — then it sorts only ids, a small sorter record, and reads the page's rows by id.
 */
export function slotPageQuery(
  q: PageQuery,
  matched: number,
  tableRows: () => number,
): { sql: string; params: unknown[]; scan: boolean } {
  const { where, orderBy, orderByScan } = compilePage(q, SLOT_COLUMNS);
  const params = [...where.params, q.limit, q.offset];
  const scan =
    where.sql !== '' &&
    orderByScan !== orderBy &&
    preferScan({ offset: q.offset, limit: q.limit, matched, rows: tableRows() });
  const sql = scan
    ? `SELECT ${COLS} FROM coverage_slots WHERE id IN (SELECT id FROM coverage_slots ${where.sql} ${orderByScan} LIMIT ? OFFSET ?) ${orderByScan}`
    : `SELECT ${COLS} FROM coverage_slots ${where.sql} ${orderBy} LIMIT ? OFFSET ?`;
  return { sql, params, scan };
}

export function slotsRepo(db: ReadDb) {
  // Statements come from the connection's cache: handlers call slotsRepo(db) on every request.
  const byId = prepareCached(db, `SELECT ${COLS} FROM coverage_slots WHERE id = ?`);
  return {
    list(q: PageQuery): { rows: Slot[]; total: number } {
      const { where } = compilePage(q, SLOT_COLUMNS);
      // Count first: an empty or past-the-end page needs no row query, and the count picks the plan.
      const total = (
        prepareCached(db, `SELECT count(*) AS n FROM coverage_slots ${where.sql}`).get(...where.params) as { n: number }
      ).n;
      if (q.offset >= total) return { rows: [], total };
      const page = slotPageQuery(
        q,
        total,
        () => (prepareCached(db, 'SELECT count(*) AS n FROM coverage_slots').get() as { n: number }).n,
      );
      return { rows: (prepareCached(db, page.sql).all(...page.params) as SlotRow[]).map(toSlot), total };
    },
    get(id: number): Slot | undefined {
      const r = byId.get(id) as SlotRow | undefined;
      return r ? toSlot(r) : undefined;
    },
    count(): number {
      return (prepareCached(db, 'SELECT count(*) AS n FROM coverage_slots').get() as { n: number }).n;
    },
    /** Sums read covering indexes (migration 0002); services are summed per distinct set, then split here. */
    stats() {
      const totals = prepareCached(
        db,
        'SELECT count(*) AS slots, coalesce(sum(target_count), 0) AS planned FROM coverage_slots',
      ).get() as { slots: number; planned: number };
      const group = (col: 'difficulty' | 'language' | 'services') =>
        prepareCached(db, `SELECT ${col} AS k, sum(target_count) AS n FROM coverage_slots GROUP BY ${col}`).all() as {
          k: string;
          n: number;
        }[];
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

/** Slot writes, inside the caller's transaction (a mutation or a job's batch). */
export function slotsWriter(db: WriteDb) {
  const insert = prepareCached(
    db,
    `INSERT INTO coverage_slots (${COLS}) VALUES (@id, @family, @services, @category, @difficulty, @language, @reference_date, @scenario, @target_count, @notes, @created_at, @updated_at)`,
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
      const stmt = prepareCached(db, `UPDATE coverage_slots SET ${field} = ?, updated_at = ? WHERE id = ?`);
      stmt.run(field === 'services' ? JSON.stringify(value) : value, now, id);
    },
    delete(id: number): void {
      prepareCached(db, 'DELETE FROM coverage_slots WHERE id = ?').run(id);
    },
  };
}
export type SlotsRepo = ReturnType<typeof slotsRepo>;
