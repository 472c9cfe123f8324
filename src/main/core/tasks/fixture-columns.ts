import type { z } from 'zod';
import { AppError } from '../lib/errors';
import { describeRecord, type FieldInfo, type FieldType } from '../services/record-fields';
import { isObject, parsePyJsonText, PyFloat, type PyObject, type PyValue } from '../py/pyjson';

/** One column of a fixture grid: its type (from the record schema, else from the values it holds) and rules. */
export type FixtureColumn = FieldInfo & { name: string; required: boolean; key: boolean; declared: boolean };

/** The type a column's values show when the schema does not name it (extra fields kept from upstream). */
function inferred(values: PyValue[]): { type: FieldType; float: boolean } {
  const kinds = new Set(
    values.map((v) =>
      v === null
        ? 'null'
        : v instanceof PyFloat
          ? 'float'
          : typeof v === 'number'
            ? Number.isInteger(v)
              ? 'int'
              : 'float'
            : typeof v === 'boolean'
              ? 'boolean'
              : typeof v === 'string'
                ? 'string'
                : Array.isArray(v)
                  ? 'list'
                  : 'json',
    ),
  );
  kinds.delete('null');
  const only = (...k: string[]) => kinds.size > 0 && [...kinds].every((x) => k.includes(x));
  if (only('int')) return { type: 'integer', float: false };
  if (only('int', 'float')) return { type: 'number', float: kinds.has('float') && !kinds.has('int') };
  if (only('boolean')) return { type: 'boolean', float: false };
  if (only('string')) return { type: 'string', float: false };
  if (only('list')) return { type: 'list', float: false };
  return { type: 'json', float: false };
}

/** Columns in first-seen order, then the schema's required fields no record has yet. */
export function fixtureColumns(records: PyValue[], schema: z.ZodType | undefined, key: string | undefined) {
  const declared = schema ? describeRecord(schema) : {};
  const names: string[] = [];
  for (const r of records) if (isObject(r)) for (const k of Object.keys(r)) if (!names.includes(k)) names.push(k);
  for (const [k, d] of Object.entries(declared)) if (d.required && !names.includes(k)) names.push(k);
  const floats = new Set<string>();
  const columns = names.map((name): FixtureColumn => {
    // Own fields only: a record field may be named constructor or toString (plain data upstream), which `in` and a
    // plain lookup would find on Object.prototype — a function taken for a value or for the schema's description.
    const values = records.flatMap((r) => (isObject(r) && Object.hasOwn(r, name) ? [r[name]!] : []));
    const inf = inferred(values);
    if (inf.float) floats.add(name);
    const d = Object.hasOwn(declared, name) ? declared[name] : undefined;
    const nullable = d ? d.nullable : values.some((v) => v === null);
    const info: FieldInfo = d && d.type !== 'json' ? d : { type: inf.type, nullable };
    return { ...info, nullable, name, required: d?.required ?? false, key: name === key, declared: !!d };
  });
  return { columns, floats };
}

const bad = (where: string, message: string, field: string) =>
  new AppError('INVALID_INPUT', `${where}: ${message}; nothing was saved`, [{ path: [field], message }]);

const DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A cell's text (JSON, as the grid sends it) → the value to store, keeping the column's type: an
 * integer column takes whole numbers only (never "7" or 12.5), a count no negative, a float column
 * stays float (300 → 300.0, as Python wrote it), booleans are true/false, enums their list, dates
 * dates. `undefined` means "remove the field" (an empty optional cell).
 */
export function parseCell(text: string, col: FixtureColumn, floatColumn: boolean, where: string): PyValue | undefined {
  const field = col.name;
  if (text.trim() === '') {
    if (col.nullable) return null;
    if (col.required || col.key) throw bad(where, `${field} is required and cannot be empty`, field);
    return undefined;
  }
  // parsePyJsonText also refuses what JSON.parse takes but a workspace cannot hold (1e400, deep nesting).
  const json = parsePyJsonText(text, field);
  if (!json.ok)
    throw bad(
      where,
      col.type === 'boolean' ? `${field} is true or false` : `${json.message} (text values go in quotes)`,
      field,
    );
  const v = json.value;
  if (v === null) {
    if (col.nullable) return null;
    throw bad(where, `${field} cannot be null`, field);
  }
  const num = v instanceof PyFloat ? v.value : typeof v === 'number' ? v : undefined;
  const min = (n: number) => {
    if (col.min !== undefined && n < col.min) throw bad(where, `${field} must be ≥ ${col.min}`, field);
  };
  switch (col.type) {
    case 'integer':
      if (num === undefined || v instanceof PyFloat || !Number.isInteger(num))
        throw bad(where, `${field} is a whole number${col.min === 0 ? ' ≥ 0' : ''}`, field);
      min(num);
      return v;
    case 'number':
      if (num === undefined) throw bad(where, `${field} is a number`, field);
      min(num);
      return floatColumn && !(v instanceof PyFloat) ? new PyFloat(num) : v;
    case 'boolean':
      if (typeof v !== 'boolean') throw bad(where, `${field} is true or false`, field);
      return v;
    case 'enum':
      if (typeof v !== 'string' || !col.values?.includes(v))
        throw bad(where, `${field} is one of ${col.values?.map((x) => (x === '' ? '""' : x)).join(', ')}`, field);
      return v;
    case 'date':
      if (typeof v !== 'string' || !DATE.test(v))
        throw bad(where, `${field} is a date (YYYY-MM-DD or ISO date-time)`, field);
      return v;
    case 'string':
      if (typeof v !== 'string') throw bad(where, `${field} is text`, field);
      if ((col.required || col.key) && v.trim() === '')
        throw bad(where, `${field} is required and cannot be empty`, field);
      if (col.format === 'email' && !/@/.test(v)) throw bad(where, `${field} is an email address`, field);
      return v;
    case 'list':
      if (!Array.isArray(v)) throw bad(where, `${field} is a list, e.g. ["a", "b"]`, field);
      return v;
    default:
      return v;
  }
}

/** The key value must stay unique within the fixture (tools find records by it). */
export function assertUniqueKey(
  records: PyValue[],
  index: number,
  key: string,
  value: PyValue | undefined,
  where: string,
) {
  if (value === undefined || value === null) return;
  const text = JSON.stringify(value instanceof PyFloat ? value.value : value);
  const other = records.findIndex(
    (r, i) => i !== index && isObject(r) && JSON.stringify((r as PyObject)[key] ?? null) === text,
  );
  if (other >= 0) throw bad(where, `${key} ${text} is already used by record ${other + 1}`, key);
}
