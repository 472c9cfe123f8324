import type { FilterCondition } from '../../../shared/contract/entities/grid-query';
import { AppError } from '../lib/errors';

/** `list`: a JSON array of strings in a TEXT column (services); filters match its elements, not its JSON. */
export type ColumnKind = 'text' | 'number' | 'list';
/**
 * Grid field → SQL column. Only names from this map ever reach SQL text; values are always bound.
 * `selective: false` marks a column of a handful of values (difficulty, language): a filter on it
 * matches a large share of the rows, which are read faster in table order than looked up one by
 * one through its index, so filters write it `+col` and SQLite leaves that index to ORDER BY.
 * `order` is an enum's declared order (easy, medium, hard): sorts follow it, not the alphabet. The
 * sort expression is `enumRank(sql, order)`; an index on that exact text (migration 0010) serves it.
 */
export type ColumnMap = Record<
  string,
  { sql: string; kind: ColumnKind; selective?: boolean; order?: readonly string[]; via?: Lookup }
>;
/**
 * A column kept in another table, one row per value of `key` (the trajectories grid's bucket is its
 * task's, in curation_tasks): `sql` reads it for a row (a correlated subquery: the page's rows and
 * sorts), filters test the key against that table (`key IN (SELECT key FROM table WHERE …)`), and
 * set filters count rows per key before reading the column once per key. Every key of the grid table
 * must have a row there (settle keeps curation_tasks so), or no condition on the column matches it.
 */
export type Lookup = { table: string; key: string; column: string };
type Column = ColumnMap[string];

/** How a grid's quick search reads its rows: LIKE over text columns, and an FTS5 table for large text. */
export type QuickSearch = {
  like: string[];
  /** An FTS5 table (trigram tokenizer) whose rowid is the grid table's rowid; `columns` are its text columns. */
  fts?: { table: string; columns: string[] };
};

type Where = { sql: string; params: unknown[] };

const like = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The sort key of an enum column: its position in the declared order; values outside it sort last. */
export const enumRank = (sql: string, order: readonly string[]): string =>
  `(CASE ${sql} ${order.map((v, i) => `WHEN ${sqlString(v)} THEN ${i}`).join(' ')} ELSE ${order.length} END)`;

/** A list element test: `pattern` is a LIKE pattern over one element's JSON text. */
const element = (col: string, pattern: string): Where => ({
  sql: `EXISTS (SELECT 1 FROM json_each(${col}) WHERE value LIKE ? ESCAPE '\\')`,
  params: [pattern],
});
/** Exact element match through the JSON text (no json_each: a LIKE scan, ~10× faster on a million rows). */
const hasElement = (col: string, v: string): Where => ({
  sql: `${col} LIKE ? ESCAPE '\\'`,
  params: [`%${like(JSON.stringify(v))}%`],
});

function setCondition(col: Column, s: string, c: FilterCondition): Where {
  const values = c.values ?? [];
  if (!values.length) return { sql: '0', params: [] };
  if (col.kind === 'list') {
    const parts = values.map((v) => (v === '' ? { sql: `${s} = '[]'`, params: [] } : hasElement(s, String(v))));
    return { sql: `(${parts.map((p) => p.sql).join(' OR ')})`, params: parts.flatMap((p) => p.params) };
  }
  const blank = values.includes('');
  const rest = values.filter((v) => v !== '').map((v) => (col.kind === 'number' ? Number(v) : String(v)));
  const parts: string[] = [];
  if (rest.length) parts.push(`${s} IN (${rest.map(() => '?').join(', ')})`);
  if (blank) parts.push(`${s} IS NULL OR ${s} = ''`);
  return { sql: `(${parts.join(' OR ')})`, params: rest };
}

function condition(col: Column, c: FilterCondition, field: string): Where {
  const v = c.value;
  const need = () => {
    if (v === undefined || v === '')
      throw new AppError('INVALID_INPUT', `filter on ${field}: ${c.op} needs a value`, [
        { path: ['filters', field], message: 'value required' },
      ]);
    return col.kind === 'number' ? Number(v) : String(v);
  };
  const textOnly = () => {
    if (col.kind === 'number')
      throw new AppError('INVALID_INPUT', `filter on ${field}: ${c.op} applies to text columns only`, [
        { path: ['filters', field], message: 'text operator on a number column' },
      ]);
    return like(String(need()));
  };
  const s = col.selective === false ? `+${col.sql}` : col.sql;
  if (c.op === 'in') return setCondition(col, s, c);
  if (col.kind === 'list') return listCondition(s, c, field, textOnly);
  switch (c.op) {
    case 'contains':
      return { sql: `${s} LIKE ? ESCAPE '\\'`, params: [`%${textOnly()}%`] };
    case 'notContains':
      return { sql: `${s} NOT LIKE ? ESCAPE '\\'`, params: [`%${textOnly()}%`] };
    case 'startsWith':
      return { sql: `${s} LIKE ? ESCAPE '\\'`, params: [`${textOnly()}%`] };
    case 'endsWith':
      return { sql: `${s} LIKE ? ESCAPE '\\'`, params: [`%${textOnly()}`] };
    case 'equals':
      return { sql: `${s} = ?`, params: [need()] };
    case 'notEqual':
      return { sql: `${s} != ?`, params: [need()] };
    case 'lessThan':
      return { sql: `${s} < ?`, params: [need()] };
    case 'lessThanOrEqual':
      return { sql: `${s} <= ?`, params: [need()] };
    case 'greaterThan':
      return { sql: `${s} > ?`, params: [need()] };
    case 'greaterThanOrEqual':
      return { sql: `${s} >= ?`, params: [need()] };
    case 'inRange': {
      const to = c.valueTo;
      if (to === undefined || to === '')
        throw new AppError('INVALID_INPUT', `filter on ${field}: inRange needs valueTo`, [
          { path: ['filters', field], message: 'valueTo required' },
        ]);
      return { sql: `${s} BETWEEN ? AND ?`, params: [need(), col.kind === 'number' ? Number(to) : String(to)] };
    }
    case 'blank':
      return { sql: `(${s} IS NULL OR ${s} = '')`, params: [] };
    case 'notBlank':
      return { sql: `(${s} IS NOT NULL AND ${s} != '')`, params: [] };
  }
}

/** Text operators on a list column speak of its elements: "equals gmail" is a slot whose services include gmail. */
function listCondition(s: string, c: FilterCondition, field: string, text: () => string): Where {
  const not = (w: Where): Where => ({ sql: `NOT ${w.sql}`, params: w.params });
  switch (c.op) {
    case 'equals':
      return hasElement(s, String(c.value ?? text()));
    case 'notEqual':
      return not(hasElement(s, String(c.value ?? text())));
    case 'contains':
      return element(s, `%${text()}%`);
    case 'notContains':
      return not(element(s, `%${text()}%`));
    case 'startsWith':
      return element(s, `${text()}%`);
    case 'endsWith':
      return element(s, `%${text()}`);
    case 'blank':
      return { sql: `(${s} IS NULL OR ${s} = '[]')`, params: [] };
    case 'notBlank':
      return { sql: `(${s} IS NOT NULL AND ${s} != '[]')`, params: [] };
    default:
      throw new AppError('INVALID_INPUT', `filter on ${field}: ${c.op} does not apply to a list column`, [
        { path: ['filters', field], message: 'not a list operator' },
      ]);
  }
}

export type GridFilter = {
  filters: { field: string; operator: 'AND' | 'OR'; conditions: FilterCondition[] }[];
  quick?: string | undefined;
  /**
   * A condition a repository writes itself (never from a request: contract inputs have no such key),
   * ANDed with the rest — the trajectories grid's full-text filter.
   */
  extra?: Where | undefined;
};
export type PageQuery = GridFilter & {
  offset: number;
  limit: number;
  sort: { field: string; dir: 'asc' | 'desc' }[];
};

function quickSearch(text: string, search: QuickSearch): Where {
  const words = text.trim();
  const pattern = `%${like(words)}%`;
  const parts = search.like.map((c) => `${c} LIKE ? ESCAPE '\\'`);
  const params: unknown[] = search.like.map(() => pattern);
  if (search.fts) {
    // The trigram tokenizer needs three characters; shorter text (two Chinese characters) reads the FTS content by
    // LIKE.
    if ([...words].length >= 3) {
      parts.push(`rowid IN (SELECT rowid FROM ${search.fts.table} WHERE ${search.fts.table} MATCH ?)`);
      params.push(`"${words.replace(/"/g, '""')}"`);
    } else {
      const cols = search.fts.columns.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(' OR ');
      parts.push(`rowid IN (SELECT rowid FROM ${search.fts.table} WHERE ${cols})`);
      params.push(...search.fts.columns.map(() => pattern));
    }
  }
  return { sql: `(${parts.join(' OR ')})`, params };
}

/**
 * WHERE of a grid's filter (and quick search); `skip` leaves one field's filter out (its set filter's values).
 * `walk`: the query walks another index (a page in sort order, a set filter's groups), so a lookup's key test
 * is written `+key IN (…)` and never drives the loop — SQLite would read every row of the lookup's keys by
 * the key's index and sort them (a bucket of 200,000 trajectories: 0.7 s instead of 60 ms). Counts leave it
 * to SQLite: there the key's index is the fast way (one covering index range per key).
 */
export function compileWhere(
  q: GridFilter,
  columns: ColumnMap,
  search?: QuickSearch,
  skip?: string,
  walk = false,
): Where {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const f of q.filters) {
    const col = columns[f.field];
    if (!col) throw new AppError('INVALID_INPUT', `cannot filter on ${f.field}`);
    if (f.field === skip) continue;
    const v = col.via;
    const conds = f.conditions.map((c) => condition(v ? { ...col, sql: v.column } : col, c, f.field));
    const sql = `(${conds.map((c) => c.sql).join(f.operator === 'OR' ? ' OR ' : ' AND ')})`;
    parts.push(v ? `${walk ? '+' : ''}${v.key} IN (SELECT ${v.key} FROM ${v.table} WHERE ${sql})` : sql);
    for (const c of conds) params.push(...c.params);
  }
  if (q.quick?.trim() && search) {
    const w = quickSearch(q.quick, search);
    parts.push(w.sql);
    params.push(...w.params);
  }
  if (q.extra) {
    parts.push(`(${q.extra.sql})`);
    params.push(...q.extra.params);
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

/**
 * WHERE and ORDER BY for a grid page; the primary key always ends the order so pages are stable.
 * `orderByScan` is the same order with `+` on the sort columns, which stops SQLite from walking
 * their indexes (see preferScan); it equals `orderBy` when the order starts with the primary key.
 */
export function compilePage(
  q: PageQuery,
  columns: ColumnMap,
  pk = 'id',
  search?: QuickSearch,
  walk = false,
): { where: Where; orderBy: string; orderByScan: string } {
  const where = compileWhere(q, columns, search, undefined, walk);
  const terms = q.sort.map((s) => {
    const col = columns[s.field];
    if (!col) throw new AppError('INVALID_INPUT', `cannot sort on ${s.field}`);
    return { sql: col.order ? enumRank(col.sql, col.order) : col.sql, dir: s.dir === 'desc' ? 'DESC' : 'ASC' };
  });
  if (!terms.some((t) => t.sql === pk)) terms.push({ sql: pk, dir: q.sort[0]?.dir === 'desc' ? 'DESC' : 'ASC' });
  const orderBy = `ORDER BY ${terms.map((t) => `${t.sql} ${t.dir}`).join(', ')}`;
  const orderByScan =
    terms[0]?.sql === pk
      ? orderBy
      : `ORDER BY ${terms.map((t) => `${t.sql === pk ? '' : '+'}${t.sql} ${t.dir}`).join(', ')}`;
  return { where, orderBy, orderByScan };
}

/**
 * Is a filtered, sorted page cheaper read by scanning the table and sorting its matches
 * (`orderByScan`) than by walking the sort column's index (`orderBy`)? SQLite walks the index
 * whenever it can, as it cannot tell how selective a LIKE '%…%' is; it then reads one table row per
 * index entry, out of order, until offset + limit rows have matched: (offset + limit) × rows ÷
 * matched random reads. On 100k slots that took 60–70 ms for a filter matching nothing or for a
 * deep page of a 15 % filter, against 10–30 ms for a scan (bench/plan-query.bench.ts). Costs are in
 * random row reads: an in-order read costs about 1/6 of one, keeping a row in the sorter about 2.5.
 */
export function preferScan(p: { offset: number; limit: number; matched: number; rows: number }): boolean {
  const wanted = p.offset + p.limit;
  const walk = p.matched === 0 ? p.rows : Math.min(p.rows, (wanted * p.rows) / p.matched);
  const scan = p.rows / 6 + Math.min(p.matched, wanted) * 2.5;
  return scan < walk;
}
