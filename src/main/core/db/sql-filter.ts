import type { FilterCondition } from '../../../shared/contract/entities/grid-query';
import { AppError } from '../lib/errors';

export type ColumnKind = 'text' | 'number';
/**
 * Grid field → SQL column. Only names from this map ever reach SQL text; values are always bound.
 * `selective: false` marks a column of a handful of values (difficulty, language): a filter on it
 * matches a large share of the rows, which are read faster in table order than looked up one by
 * one through its index, so filters write it `+col` and SQLite leaves that index to ORDER BY.
 */
export type ColumnMap = Record<string, { sql: string; kind: ColumnKind; selective?: boolean }>;
type Column = ColumnMap[string];

type Where = { sql: string; params: unknown[] };

const like = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

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
    if (col.kind !== 'text')
      throw new AppError('INVALID_INPUT', `filter on ${field}: ${c.op} applies to text columns only`, [
        { path: ['filters', field], message: 'text operator on a number column' },
      ]);
    return like(String(need()));
  };
  const s = col.selective === false ? `+${col.sql}` : col.sql;
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

export type PageQuery = {
  offset: number;
  limit: number;
  sort: { field: string; dir: 'asc' | 'desc' }[];
  filters: { field: string; operator: 'AND' | 'OR'; conditions: FilterCondition[] }[];
};

/**
 * WHERE and ORDER BY for a grid page; the primary key always ends the order so pages are stable.
 * `orderByScan` is the same order with `+` on the sort columns, which stops SQLite from walking
 * their indexes (see preferScan); it equals `orderBy` when the order starts with the primary key.
 */
export function compilePage(
  q: PageQuery,
  columns: ColumnMap,
  pk = 'id',
): { where: Where; orderBy: string; orderByScan: string } {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const f of q.filters) {
    const col = columns[f.field];
    if (!col) throw new AppError('INVALID_INPUT', `cannot filter on ${f.field}`);
    const conds = f.conditions.map((c) => condition(col, c, f.field));
    parts.push(`(${conds.map((c) => c.sql).join(f.operator === 'OR' ? ' OR ' : ' AND ')})`);
    for (const c of conds) params.push(...c.params);
  }
  const terms = q.sort.map((s) => {
    const col = columns[s.field];
    if (!col) throw new AppError('INVALID_INPUT', `cannot sort on ${s.field}`);
    return { sql: col.sql, dir: s.dir === 'desc' ? 'DESC' : 'ASC' };
  });
  if (!terms.some((t) => t.sql === pk)) terms.push({ sql: pk, dir: q.sort[0]?.dir === 'desc' ? 'DESC' : 'ASC' });
  const orderBy = `ORDER BY ${terms.map((t) => `${t.sql} ${t.dir}`).join(', ')}`;
  const orderByScan =
    terms[0]?.sql === pk
      ? orderBy
      : `ORDER BY ${terms.map((t) => `${t.sql === pk ? '' : '+'}${t.sql} ${t.dir}`).join(', ')}`;
  return { where: { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params }, orderBy, orderByScan };
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
