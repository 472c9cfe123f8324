import { parquetWriteBuffer } from 'hyparquet-writer';

/** The writer's schema element type (hyparquet's, which the core does not depend on directly). */
type SchemaElement = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>[number];

/**
 * A tiny description of nested Parquet columns, turned into hyparquet-writer's explicit schema: real
 * nested types (LIST<STRUCT<…>>, STRUCT<…>) rather than JSON text, so pandas, HF datasets and DuckDB
 * read dicts and lists (`DESCRIBE` shows STRUCT(…)[]). Every field is REQUIRED: rows are uniform.
 */
export type PType = 'string' | 'int64' | 'bool' | 'double' | { list: PType } | { struct: readonly [string, PType][] };

function elements(name: string, t: PType): SchemaElement[] {
  if (t === 'string') return [{ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' }];
  if (t === 'int64') return [{ name, type: 'INT64', repetition_type: 'REQUIRED' }];
  if (t === 'bool') return [{ name, type: 'BOOLEAN', repetition_type: 'REQUIRED' }];
  if (t === 'double') return [{ name, type: 'DOUBLE', repetition_type: 'REQUIRED' }];
  if ('list' in t)
    // The standard 3-level list: <name> (LIST) → repeated group "list" → "element".
    return [
      { name, repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      ...elements('element', t.list),
    ];
  // Parquet has no empty groups: a struct needs at least one field.
  if (!t.struct.length) throw new Error(`parquet struct ${name} has no fields`);
  return [
    { name, repetition_type: 'REQUIRED', num_children: t.struct.length },
    ...t.struct.flatMap(([k, v]) => elements(k, v)),
  ];
}

/** JS value → what the writer takes for `t` (int64 as BigInt), checking the shape on the way. */
function encode(v: unknown, t: PType, at: string): unknown {
  const bad = (what: string) =>
    new Error(`parquet value ${at}: expected ${what}, got ${JSON.stringify(v) ?? 'undefined'}`);
  if (t === 'string') {
    if (typeof v !== 'string') throw bad('a string');
    return v;
  }
  if (t === 'int64') {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw bad('an integer');
    return BigInt(v);
  }
  if (t === 'bool') {
    if (typeof v !== 'boolean') throw bad('a boolean');
    return v;
  }
  if (t === 'double') {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw bad('a finite number');
    return v;
  }
  if ('list' in t) {
    if (!Array.isArray(v)) throw bad('a list');
    return v.map((x, i) => encode(x, t.list, `${at}[${i}]`));
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw bad('an object');
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => !t.struct.some(([f]) => f === k));
  if (extra.length) throw new Error(`parquet value ${at}: field(s) ${extra.join(', ')} are not in the schema`);
  return Object.fromEntries(t.struct.map(([k, ft]) => [k, encode(o[k], ft, `${at}.${k}`)]));
}

/** Rows → a Parquet file's bytes (Snappy), with the columns and types given. */
export function writeParquet(
  columns: readonly [string, PType][],
  rows: readonly Record<string, unknown>[],
  kv: Record<string, string> = {},
): Uint8Array {
  const schema: SchemaElement[] = [
    { name: 'root', num_children: columns.length },
    ...columns.flatMap(([n, t]) => elements(n, t)),
  ];
  const columnData = columns.map(([name, t]) => ({
    name,
    data: rows.map((r, i) => encode(r[name], t, `row ${i} ${name}`)),
  }));
  const buf = parquetWriteBuffer({
    columnData,
    schema,
    kvMetadata: Object.entries(kv).map(([key, value]) => ({ key, value })),
    createdBy: 'coworkenv-studio',
  });
  return new Uint8Array(buf);
}
