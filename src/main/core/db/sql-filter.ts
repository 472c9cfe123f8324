import type { FilterCondition } from '../../../shared/contract/entities/grid-query';
import { AppError } from '../rpc/errors';

export type ColumnKind = 'text' | 'number';
/** Grid field → SQL column. Only names from this map ever reach SQL text; values are always bound. */
export type ColumnMap = Record<string, { sql: string; kind: ColumnKind }>;

type Where = { sql: string; params: unknown[] };

const like = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function condition(col: { sql: string; kind: ColumnKind }, c: FilterCondition, field: string): Where {
  const v = c.value;
  const need = () => {
    if (v === undefined || v === '') throw new AppError('INVALID_INPUT', `filter on ${field}: ${c.op} needs a value`, [{ path: ['filters', field], message: 'value required' }]);
    return col.kind === 'number' ? Number(v) : String(v);
  };
  const textOnly = () => {
    if (col.kind !== 'text') throw new AppError('INVALID_INPUT', `filter on ${field}: ${c.op} applies to text columns only`, [{ path: ['filters', field], message: 'text operator on a number column' }]);
    return like(String(need()));
  };
  const s = col.sql;
  switch (c.op) {
    case 'contains': return { sql: `${s} LIKE ? ESCAPE '\\'`, params: [`%${textOnly()}%`] };
    case 'notContains': return { sql: `${s} NOT LIKE ? ESCAPE '\\'`, params: [`%${textOnly()}%`] };
    case 'startsWith': return { sql: `${s} LIKE ? ESCAPE '\\'`, params: [`${textOnly()}%`] };
    case 'endsWith': return { sql: `${s} LIKE ? ESCAPE '\\'`, params: [`%${textOnly()}`] };
    case 'equals': return { sql: `${s} = ?`, params: [need()] };
    case 'notEqual': return { sql: `${s} != ?`, params: [need()] };
    case 'lessThan': return { sql: `${s} < ?`, params: [need()] };
    case 'lessThanOrEqual': return { sql: `${s} <= ?`, params: [need()] };
    case 'greaterThan': return { sql: `${s} > ?`, params: [need()] };
    case 'greaterThanOrEqual': return { sql: `${s} >= ?`, params: [need()] };
    case 'inRange': {
      const to = c.valueTo;
      if (to === undefined || to === '') throw new AppError('INVALID_INPUT', `filter on ${field}: inRange needs valueTo`, [{ path: ['filters', field], message: 'valueTo required' }]);
      return { sql: `${s} BETWEEN ? AND ?`, params: [need(), col.kind === 'number' ? Number(to) : String(to)] };
    }
    case 'blank': return { sql: `(${s} IS NULL OR ${s} = '')`, params: [] };
    case 'notBlank': return { sql: `(${s} IS NOT NULL AND ${s} != '')`, params: [] };
  }
}

export type PageQuery = {
  offset: number;
  limit: number;
  sort: { field: string; dir: 'asc' | 'desc' }[];
  filters: { field: string; operator: 'AND' | 'OR'; conditions: FilterCondition[] }[];
};

/** WHERE and ORDER BY for a grid page; the primary key always ends the order so pages are stable. */
export function compilePage(q: PageQuery, columns: ColumnMap, pk = 'id'): { where: Where; orderBy: string } {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const f of q.filters) {
    const col = columns[f.field];
    if (!col) throw new AppError('INVALID_INPUT', `cannot filter on ${f.field}`);
    const conds = f.conditions.map((c) => condition(col, c, f.field));
    parts.push(`(${conds.map((c) => c.sql).join(f.operator === 'OR' ? ' OR ' : ' AND ')})`);
    for (const c of conds) params.push(...c.params);
  }
  const order = q.sort.map((s) => {
    const col = columns[s.field];
    if (!col) throw new AppError('INVALID_INPUT', `cannot sort on ${s.field}`);
    return `${col.sql} ${s.dir === 'desc' ? 'DESC' : 'ASC'}`;
  });
  if (!q.sort.some((s) => columns[s.field]?.sql === pk)) order.push(`${pk} ${q.sort[0]?.dir === 'desc' ? 'DESC' : 'ASC'}`);
  return { where: { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params }, orderBy: `ORDER BY ${order.join(', ')}` };
}
