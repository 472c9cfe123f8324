import { randomUUID } from 'node:crypto';
import { groupCount, mergedIds, mergePlan, type GroupMerge } from './group-merge';
import {
  compilePage,
  compileWhere,
  enumRank,
  preferScan,
  type ColumnMap,
  type GridFilter,
  type PageQuery,
  type QuickSearch,
} from './sql-filter';
import { prepareCached, type ReadDb, type WriteDb } from './sqlite';

/** What a grid's repository declares once: its table, the grid's columns, the primary key and the row shape. */
export type PagedTable<Row, Raw = Record<string, unknown>> = {
  table: string;
  columns: ColumnMap;
  /** The primary key: it ends every order so pages are stable. */
  pk: string;
  /** The SELECT list of a row (plain column names: delete-by-filter keeps rows by these names). */
  select: string;
  toRow(raw: Raw): Row;
  /** The quick search box: which text it reads. */
  search?: QuickSearch;
  /** A count table over some columns that answers set filter lists without reading every row (see pagedValues). */
  facets?: FacetTable;
  /** Pages under a lookup filter merged group by group (group-merge.ts): trajectories under a bucket. */
  merge?: GroupMerge;
};

/**
 * One row per distinct combination of `columns` (grid fields whose SQL names are the table's
 * columns too) with its number of rows in `count`, kept exact by triggers (migration 0014).
 */
export type FacetTable = { table: string; columns: readonly string[]; count: string };

type Table = Pick<PagedTable<unknown>, 'table' | 'columns' | 'pk' | 'select' | 'search' | 'facets' | 'merge'>;

const count = (db: ReadDb, sql: string, params: unknown[] = []) =>
  (prepareCached(db, sql).get(...params) as { n: number }).n;

/**
 * The row query of a page, given how many rows match (`matched`) and how many the table holds.
 * Either SQLite walks the sort column's index, or (preferScan) it scans the table and sorts the
 * matches — then it sorts only keys, a small sorter record, and reads the page's rows by key.
 */
export function pageQuery(
  t: Table,
  q: PageQuery,
  matched: number,
  tableRows: () => number,
): { sql: string; params: unknown[]; scan: boolean } {
  const { where, orderBy, orderByScan } = compilePage(q, t.columns, t.pk, t.search);
  const params = [...where.params, q.limit, q.offset];
  const scan =
    where.sql !== '' &&
    orderByScan !== orderBy &&
    preferScan({ offset: q.offset, limit: q.limit, matched, rows: tableRows() });
  // Walking the sort column's index: a lookup column's key test must not drive the loop (compileWhere).
  const walk = scan ? where : compilePage(q, t.columns, t.pk, t.search, true).where;
  const sql = scan
    ? `SELECT ${t.select} FROM ${t.table} WHERE ${t.pk} IN (SELECT ${t.pk} FROM ${t.table} ${where.sql} ` +
      `${orderByScan} LIMIT ? OFFSET ?) ${orderByScan}`
    : `SELECT ${t.select} FROM ${t.table} ${walk.sql} ${orderBy} LIMIT ? OFFSET ?`;
  return { sql, params, scan };
}

/**
 * One page of a grid, sorted and filtered in SQL: every grid's list goes through here. Counts
 * first: an empty or past-the-end page needs no row query, and the count picks the plan.
 * `unfiltered` (the table's row count) comes with the first block of a filtered query, for
 * the status bar's "filtered of total".
 */
export function pagedList<Row, Raw>(
  db: ReadDb,
  t: PagedTable<Row, Raw>,
  q: PageQuery,
): { rows: Row[]; total: number; unfiltered?: number } {
  const { where } = compilePage(q, t.columns, t.pk, t.search);
  const total = groupCount(db, t, q) ?? count(db, `SELECT count(*) AS n FROM ${t.table} ${where.sql}`, where.params);
  let all: number | undefined;
  const tableRows = () => (all ??= count(db, `SELECT count(*) AS n FROM ${t.table}`));
  const unfiltered = q.offset === 0 ? (where.sql ? tableRows() : total) : undefined;
  const extra = unfiltered === undefined ? {} : { unfiltered };
  if (q.offset >= total) return { rows: [], total, ...extra };
  const plan = mergePlan(t, q);
  const merged = plan && mergedIds(db, t, q, plan, total);
  if (merged) return { rows: rowsById(db, t, merged.ids), total, ...extra };
  const page = pageQuery(t, q, total, tableRows);
  return { rows: (prepareCached(db, page.sql).all(...page.params) as Raw[]).map((r) => t.toRow(r)), total, ...extra };
}

/** Rows by key, in the order of `ids`. */
function rowsById<Row, Raw>(db: ReadDb, t: PagedTable<Row, Raw>, ids: readonly number[]): Row[] {
  const sql = `SELECT ${t.select}, ${t.pk} AS __key FROM ${t.table} WHERE ${t.pk} IN (SELECT value FROM json_each(?))`;
  const got = new Map(
    (prepareCached(db, sql).all(JSON.stringify(ids)) as (Raw & { __key: number })[]).map((r) => [r.__key, r]),
  );
  return ids.flatMap((id) => {
    const r = got.get(id);
    if (!r) return [];
    const { __key: _, ...raw } = r;
    return [t.toRow(raw as Raw)];
  });
}

/**
 * Where a set filter's list is counted: the facet table when the listed column and every other
 * active filter are among its columns — a condition on those columns is a test of the values
 * alone, so each combination's count stands for its rows — else the grid's own table. Quick
 * search and repository-written conditions read other columns: always the table.
 */
function valuesSource(t: Table, field: string, q: GridFilter): { table: string; count: string; columns: ColumnMap } {
  const f = t.facets;
  const inFacets = (name: string) => f?.columns.includes(name) ?? false;
  if (!f || !inFacets(field) || q.quick?.trim() || q.extra || !q.filters.every((x) => inFacets(x.field)))
    return { table: t.table, count: 'count(*)', columns: t.columns };
  return {
    table: f.table,
    count: `sum(${f.count})`,
    columns: Object.fromEntries(f.columns.map((c) => [c, t.columns[c]!])),
  };
}

/**
 * The set filter's list: each distinct value of `field` under the grid's other filters, with its
 * count. A list column is grouped by its stored JSON first (few distinct sets, read from an index
 * when unfiltered) and split here. Enum columns answer in their declared order, others by value.
 * `facets: false` counts over the grid's table even when a facet table could answer (tests compare the two).
 */
export function pagedValues(
  db: ReadDb,
  t: Table,
  field: string,
  q: GridFilter & { limit: number },
  o: { facets?: boolean } = {},
): { values: { value: string | number; count: number }[]; truncated: boolean } {
  const col = t.columns[field];
  if (!col) throw new Error(`no column ${field}`);
  const from = valuesSource(o.facets === false ? { ...t, facets: undefined } : t, field, q);
  const where = compileWhere(q, from.columns, t.search, field, true);
  const v = col.via;
  // A lookup column: rows counted per key (an index walk), then the column read once per key.
  const sql = v
    ? `SELECT l.${v.column} AS v, sum(g.n) AS n FROM (SELECT ${v.key} AS k, count(*) AS n FROM ${t.table} ` +
      `${where.sql} GROUP BY ${v.key}) g LEFT JOIN ${v.table} l ON l.${v.key} = g.k GROUP BY 1`
    : `SELECT ${col.sql} AS v, ${from.count} AS n FROM ${from.table} ${where.sql} GROUP BY ${col.sql}`;
  const grouped = prepareCached(db, sql).all(...where.params) as { v: string | number | null; n: number }[];
  const counts = new Map<string | number, number>();
  const add = (v: string | number, n: number) => counts.set(v, (counts.get(v) ?? 0) + n);
  for (const { v, n } of grouped) {
    if (col.kind !== 'list') add(v ?? '', n);
    else {
      const items = typeof v === 'string' ? (JSON.parse(v) as unknown[]) : [];
      if (!items.length) add('', n);
      for (const x of new Set(items)) add(String(x), n);
    }
  }
  const rank = (v: string | number) => {
    const i = col.order?.indexOf(String(v)) ?? -1;
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  const values = [...counts]
    .map(([value, n]) => ({ value, count: n }))
    .sort((a, b) => rank(a.value) - rank(b.value) || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return { values: values.slice(0, q.limit), truncated: values.length > q.limit };
}

/** Every key matching the filter (select all matching rows), in key order, up to `limit`. */
export function pagedIds<K>(db: ReadDb, t: Table, q: GridFilter & { limit: number }): { ids: K[]; total: number } {
  const where = compileWhere(q, t.columns, t.search);
  const total = count(db, `SELECT count(*) AS n FROM ${t.table} ${where.sql}`, where.params);
  // In key order: the table is walked (a lookup's key test must not drive the loop and sort every match).
  const walk = compileWhere(q, t.columns, t.search, undefined, true);
  const ids = prepareCached(db, `SELECT ${t.pk} AS k FROM ${t.table} ${walk.sql} ORDER BY ${t.pk} LIMIT ?`)
    .all(...walk.params, q.limit)
    .map((r) => (r as { k: K }).k);
  return { ids, total };
}

/** Kept batches of deleted rows (the grid's undo); older ones are dropped when a new one is made. */
const TRASH_KEEP = 20;

/**
 * Deletes every row matching the filter, in the caller's transaction, keeping them in grid_trash
 * under a new batch id so `restoreDeleted` can put them back (undo). A filter is required: an
 * empty one would be "delete everything", which no grid offers by accident.
 */
export function deleteWhere(db: WriteDb, t: Table, q: GridFilter): { batch: string; deleted: number } {
  const where = compileWhere(q, t.columns, t.search);
  if (!where.sql) throw new Error('delete by filter needs a filter');
  const batch = randomUUID();
  const cols = t.select.split(',').map((c) => c.trim());
  const obj = `json_object(${cols.map((c) => `'${c}', ${c}`).join(', ')})`;
  prepareCached(
    db,
    `INSERT INTO grid_trash (batch, table_name, row, deleted_at) SELECT ?, ?, ${obj}, ` +
      `strftime('%Y-%m-%dT%H:%M:%fZ') FROM ${t.table} ${where.sql}`,
  ).run(batch, t.table, ...where.params);
  const deleted = prepareCached(db, `DELETE FROM ${t.table} ${where.sql}`).run(...where.params).changes;
  prepareCached(
    db,
    `DELETE FROM grid_trash WHERE table_name = ? AND batch NOT IN (SELECT batch FROM grid_trash WHERE table_name = ` +
      `? GROUP BY batch ORDER BY max(rowid) DESC LIMIT ${TRASH_KEEP})`,
  ).run(t.table, t.table);
  return { batch, deleted };
}

/**
 * Puts a deleted batch back. A row whose key was taken again since (a new row got the same id) is
 * never written over that row: it is counted in `conflicts`, for the caller to say so.
 */
export function restoreDeleted(db: WriteDb, t: Table, batch: string): { restored: number; conflicts: number } {
  const cols = t.select.split(',').map((c) => c.trim());
  const restored = prepareCached(
    db,
    `INSERT OR IGNORE INTO ${t.table} (${cols.join(', ')}) SELECT ${cols.map((c) => `row ->> '$.${c}'`).join(', ')}` +
      ` FROM grid_trash WHERE batch = ? AND table_name = ?`,
  ).run(batch, t.table).changes;
  const inBatch = count(db, 'SELECT count(*) AS n FROM grid_trash WHERE batch = ? AND table_name = ?', [
    batch,
    t.table,
  ]);
  prepareCached(db, 'DELETE FROM grid_trash WHERE batch = ? AND table_name = ?').run(batch, t.table);
  return { restored, conflicts: inBatch - restored };
}

export { enumRank };
