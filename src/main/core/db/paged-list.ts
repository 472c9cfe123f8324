import { compilePage, preferScan, type ColumnMap, type PageQuery } from './sql-filter';
import { prepareCached, type ReadDb } from './sqlite';

/** What a grid's repository declares once: its table, the grid's columns, the primary key and the row shape. */
export type PagedTable<Row, Raw = Record<string, unknown>> = {
  table: string;
  columns: ColumnMap;
  /** The primary key: it ends every order so pages are stable. */
  pk: string;
  /** The SELECT list of a row. */
  select: string;
  toRow(raw: Raw): Row;
};

/**
 * The row query of a page, given how many rows match (`matched`) and how many the table holds.
 * Either SQLite walks the sort column's index, or (preferScan) it scans the table and sorts the
 * matches — then it sorts only keys, a small sorter record, and reads the page's rows by key.
 */
export function pageQuery(
  t: Pick<PagedTable<unknown>, 'table' | 'columns' | 'pk' | 'select'>,
  q: PageQuery,
  matched: number,
  tableRows: () => number,
): { sql: string; params: unknown[]; scan: boolean } {
  const { where, orderBy, orderByScan } = compilePage(q, t.columns, t.pk);
  const params = [...where.params, q.limit, q.offset];
  const scan =
    where.sql !== '' &&
    orderByScan !== orderBy &&
    preferScan({ offset: q.offset, limit: q.limit, matched, rows: tableRows() });
  const sql = scan
    ? `SELECT ${t.select} FROM ${t.table} WHERE ${t.pk} IN (SELECT ${t.pk} FROM ${t.table} ${where.sql} ` +
      `${orderByScan} LIMIT ? OFFSET ?) ${orderByScan}`
    : `SELECT ${t.select} FROM ${t.table} ${where.sql} ${orderBy} LIMIT ? OFFSET ?`;
  return { sql, params, scan };
}

/**
 * One page of a grid, sorted and filtered in SQL: every grid's list goes through here. Counts
 * first: an empty or past-the-end page needs no row query, and the count picks the plan.
 */
export function pagedList<Row, Raw>(db: ReadDb, t: PagedTable<Row, Raw>, q: PageQuery): { rows: Row[]; total: number } {
  const { where } = compilePage(q, t.columns, t.pk);
  const count = (sql: string, params: unknown[] = []) => (prepareCached(db, sql).get(...params) as { n: number }).n;
  const total = count(`SELECT count(*) AS n FROM ${t.table} ${where.sql}`, where.params);
  if (q.offset >= total) return { rows: [], total };
  const page = pageQuery(t, q, total, () => count(`SELECT count(*) AS n FROM ${t.table}`));
  return { rows: (prepareCached(db, page.sql).all(...page.params) as Raw[]).map((r) => t.toRow(r)), total };
}
