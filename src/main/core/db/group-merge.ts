import { compileWhere, type ColumnMap, type GridFilter, type PageQuery, type QuickSearch } from './sql-filter';
import { prepareCached, type ReadDb } from './sqlite';
import { compareSqlValues, MinHeap } from './sql-order';

/**
 * A grid whose rows belong to groups (trajectories to tasks) and whose lookup column (`via`: the bucket) is a
 * group's. `sorts`: fields with an index (group key, field's column), whose entries come in the grid's order
 * within a group (the column, then the row id). `counts`: a table of each group's row count (key, n).
 */
export type GroupMerge = {
  sorts: readonly string[];
  counts?: { table: string; n: string };
  /**
   * Sorts whose own single-column index the plain order walks (field → index name): tried first, for at most
   * `walkBudget` rows (WALK_BUDGET), before the merge. 0 never walks (tests force either plan).
   */
  walks?: Readonly<Record<string, string>>;
  walkBudget?: number;
};

type Key = { v: unknown; i: number; k: unknown };
type Table = {
  table: string;
  columns: ColumnMap;
  pk: string;
  search?: QuickSearch | undefined;
  merge?: GroupMerge | undefined;
};
type Plan = {
  field: string;
  col: string;
  desc: boolean;
  groups: { sql: string; params: unknown[]; table: string; key: string };
  rows: { sql: string; params: unknown[] };
};

/** Rows left to a cached merge before a block is read by the plain query instead (a jump down the grid). */
const SKIP_MAX = 10_000;
/**
 * Rows of the plain order walked before the merge is tried instead: ~10–25 ms on a loaded machine, against the
 * merge's two seeks per task of the bucket (22k tasks: 40–800 ms). When the bucket's rows are spread along the
 * sort (score or created_at ties, ordered by id) a block fills within a few hundred rows; when the bucket
 * follows the sort (TRIVIAL rows all at reward 1, after ~500k rows at reward 0) the walk gives up early.
 */
export const WALK_BUDGET = 30_000;
/** Merges kept per connection (a few grids and their value lists). */
const STATES_MAX = 8;

/** The group filter (the first lookup filter) and the other conditions, as SQL; null when no lookup filter. */
function split(q: GridFilter, t: Table) {
  const driver = q.filters.find((f) => t.columns[f.field]?.via);
  const via = driver && t.columns[driver.field]?.via;
  if (!driver || !via) return null;
  const own = { [driver.field]: { ...t.columns[driver.field]!, sql: via.column, via: undefined } };
  const groups = compileWhere({ filters: [driver] }, own);
  const rows = compileWhere({ ...q, filters: q.filters.filter((f) => f !== driver) }, t.columns, t.search, '', true);
  return {
    groups: { sql: groups.sql, params: groups.params, table: via.table, key: via.key },
    rows: { sql: rows.sql.replace(/^WHERE /, ''), params: rows.params },
  };
}

/**
 * A bucket's row count as a sum over its tasks (`counts`), when the bucket is the only condition; else null.
 * `count(*) … WHERE task_id IN (tasks of the bucket)` walks every row's index entry (85 ms for 443k rows).
 */
export function groupCount(db: ReadDb, t: Table, q: GridFilter): number | null {
  const c = t.merge?.counts;
  if (!c || q.filters.length !== 1 || q.quick?.trim() || q.extra) return null;
  const s = split(q, t);
  if (!s) return null;
  const g = s.groups;
  const sql =
    `SELECT coalesce(sum(r.${c.n}), 0) AS n FROM ${g.table} JOIN ${c.table} r ON r.${g.key} = ${g.table}.${g.key} ` +
    g.sql;
  return (prepareCached(db, sql).get(...g.params) as { n: number }).n;
}

/** Can this page be merged group by group: a lookup filter and one sort on a field with a (key, field) index? */
export function mergePlan(t: Table, q: PageQuery): Plan | null {
  const sort = q.sort[0];
  if (!t.merge || q.sort.length !== 1 || !sort || !t.merge.sorts.includes(sort.field)) return null;
  const col = t.columns[sort.field];
  if (!col || col.via || col.order) return null;
  const s = split(q, t);
  return s && { field: sort.field, col: col.sql, desc: sort.dir === 'desc', ...s };
}

type State = { version: string; emitted: number; heap: MinHeap<Key> };
type Kept = { state?: State; first?: { version: string; keys: Key[] } };
const kept = new WeakMap<object, Map<string, Kept>>();

/**
 * The page's row ids. First, when the sort has a walk index, the plain order read for at most walkBudget rows
 * with each row's group tested (walkedIds); when that fills the page it is the answer. Else the rows are merged
 * group by group: each group of the filter is sought once in its (key, column) index for its first row under
 * the other filters, then a heap takes the smallest and seeks that group's next row. SQLite cannot merge index
 * ranges itself: it walks the column's index across every group (passing the other buckets' rows) or sorts
 * every match. The heap is kept per query until the data changes, so the next block continues where this one
 * stopped, and so are the groups' first rows, so opening the query again skips the seeks; a block far past the
 * kept heap is left to the plain query (null).
 */
export function mergedIds(
  db: ReadDb,
  t: Table,
  q: PageQuery,
  p: Plan,
  total: number,
): { ids: number[]; via: 'walk' | 'merge' } | null {
  const version = dataVersion(db);
  const cacheKey = JSON.stringify([t.table, q.filters, q.quick ?? '', q.extra ?? null, q.sort]);
  let byQuery = kept.get(db);
  if (!byQuery) kept.set(db, (byQuery = new Map()));
  const k = byQuery.get(cacheKey) ?? {};
  byQuery.delete(cacheKey);
  byQuery.set(cacheKey, k); // most recently used last
  if (byQuery.size > STATES_MAX) byQuery.delete(byQuery.keys().next().value as string);
  let state = k.state;
  if (!state || state.version !== version || state.emitted > q.offset) state = undefined;
  if (state && q.offset - state.emitted > SKIP_MAX) state = undefined;
  if (!state) {
    const walked = walkedIds(db, t, q, p, total);
    if (walked) return { ids: walked, via: 'walk' };
    if (q.offset > SKIP_MAX) return null;
    if (k.first?.version !== version) k.first = { version, keys: firstRows(db, t, p) };
    // The kept first rows stay sorted: the heap works on a copy.
    state = { version, emitted: 0, heap: MinHeap.fromSorted(k.first.keys.slice(), byKey(p.desc)) };
  }
  k.state = state;
  const next = nextInGroup(db, t, p);
  const ids: number[] = [];
  while (state.emitted < q.offset + q.limit) {
    const top = state.heap.pop();
    if (!top) break;
    if (state.emitted >= q.offset) ids.push(top.i);
    state.emitted++;
    const after = next(top);
    if (after) state.heap.push(after);
  }
  return { ids, via: 'merge' };
}

/**
 * The page read along the sort's own index for at most walkBudget rows (under the other filters), each row's
 * group tested; null when the budget ends before the page (or the last matching row, `total`) is reached.
 */
function walkedIds(db: ReadDb, t: Table, q: PageQuery, p: Plan, total: number): number[] | null {
  const index = t.merge?.walks?.[p.field];
  const budget = t.merge?.walkBudget ?? WALK_BUDGET;
  const need = Math.min(q.offset + q.limit, total);
  if (!index || budget <= 0 || need > budget) return null;
  const g = p.groups;
  const sql =
    `SELECT i FROM (SELECT ${t.pk} AS i, ${g.key} AS k, ${p.col} AS v FROM ${t.table} INDEXED BY ${index} ` +
    `${p.rows.sql ? `WHERE ${p.rows.sql}` : ''} ${order(p, t)} LIMIT ?) w ` +
    `WHERE EXISTS (SELECT 1 FROM ${g.table} grp WHERE grp.${g.key} = w.k ${g.sql.replace(/^WHERE /, 'AND (')}` +
    `${g.sql ? ')' : ''}) ` +
    `ORDER BY v ${p.desc ? 'DESC' : 'ASC'}, i ${p.desc ? 'DESC' : 'ASC'} LIMIT ?`;
  const ids = (prepareCached(db, sql).all(...p.rows.params, budget, ...g.params, need) as { i: number }[]).map(
    (r) => r.i,
  );
  return ids.length < need ? null : ids.slice(q.offset);
}

/** Changes by this connection (total_changes) or another (data_version): either ends a kept merge. */
function dataVersion(db: ReadDb): string {
  const r = prepareCached(db, 'SELECT total_changes() AS c').get() as { c: number };
  const d = prepareCached(db, 'PRAGMA data_version').get() as { data_version: number };
  return `${r.c}:${d.data_version}`;
}

const order = (p: Plan, t: Table) => {
  const d = p.desc ? 'DESC' : 'ASC';
  return `ORDER BY ${p.col} ${d}, ${t.pk} ${d}`;
};

function byKey(desc: boolean) {
  const s = desc ? -1 : 1;
  return (a: Key, b: Key) => s * (compareSqlValues(a.v, b.v) || a.i - b.i);
}

/** Every group's first row (both subqueries read only the index), in the grid's order. */
function firstRows(db: ReadDb, t: Table, p: Plan): Key[] {
  const g = p.groups;
  const rows = p.rows.sql ? `AND ${p.rows.sql}` : '';
  const first = (what: string) =>
    `(SELECT ${what} FROM ${t.table} WHERE ${g.key} = grp.${g.key} ${rows} ${order(p, t)} LIMIT 1)`;
  const d = p.desc ? 'DESC' : 'ASC';
  const sql =
    `WITH f AS MATERIALIZED (SELECT grp.${g.key} AS k, ${first(p.col)} AS v, ${first(t.pk)} AS i ` +
    `FROM ${g.table} grp ${g.sql}) ` +
    `SELECT k, v, i FROM f WHERE i IS NOT NULL ORDER BY v ${d}, i ${d}`;
  // Sorted by SQLite in the grid's order: already a valid heap.
  return prepareCached(db, sql).all(...p.rows.params, ...p.rows.params, ...g.params) as Key[];
}

/**
 * The row after `at` in its group: the rest of its value's rows by id, else the first row of a later value
 * (NULLs sort first ascending, last descending). Each part is one seek in the (key, column) index.
 */
function nextInGroup(db: ReadDb, t: Table, p: Plan): (at: Key) => Key | null {
  const { col, desc } = p;
  const pk = t.pk;
  const d = desc ? 'DESC' : 'ASC';
  const rows = p.rows.sql ? `AND ${p.rows.sql}` : '';
  const part = (cond: string, by: string) =>
    `SELECT ${col} AS v, ${pk} AS i FROM ${t.table} WHERE ${p.groups.key} = ? AND ${cond} ${rows} ` +
    `ORDER BY ${by} LIMIT 1`;
  const same = (nil: boolean) =>
    part(`${col} ${nil ? 'IS NULL' : '= ?'} AND ${pk} ${desc ? '<' : '>'} ?`, `${pk} ${d}`);
  const later = part(`${col} ${desc ? '<' : '>'} ?`, `${col} ${d}, ${pk} ${d}`);
  const run = (sql: string, params: unknown[], k: unknown) => {
    const r = prepareCached(db, sql).get(...params, ...p.rows.params) as Key | undefined;
    return r ? { ...r, k } : null;
  };
  return (at) => {
    const nil = at.v === null;
    const inValue = run(same(nil), nil ? [at.k, at.i] : [at.k, at.v, at.i], at.k);
    if (inValue) return inValue;
    if (desc)
      return (
        (nil ? null : run(later, [at.k, at.v], at.k)) ??
        (nil ? null : run(part(`${col} IS NULL`, `${pk} DESC`), [at.k], at.k))
      );
    return run(nil ? part(`${col} IS NOT NULL`, `${col} ASC, ${pk} ASC`) : later, nil ? [at.k] : [at.k, at.v], at.k);
  };
}
