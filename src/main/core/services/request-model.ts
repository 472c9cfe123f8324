import { deepCopy, isObject, numeric, PyFloat, type PyObject, type PyValue } from '../py/pyjson';

/**
 * A route's request body model, validated the way FastAPI ≥ 0.115 with pydantic v2 (lax mode)
 * does (reference/claw-eval.md §6.2): declared fields in declaration order, defaults filled,
 * unknown keys dropped, lax coercion, and 422 bodies in pydantic's error format.
 */
export type FieldType = 'str' | 'int' | 'float' | 'bool' | 'list[str]' | 'list' | 'any';
export type FieldSpec = {
  type: FieldType;
  /** Optional[...]: an explicit null is accepted. */
  nullable?: boolean;
  /** Absent key → this value (deep-copied). Without it the field is required. */
  default?: PyValue;
};
export type RequestModel = Record<string, FieldSpec>;

export const req = (type: FieldType, nullable = false): FieldSpec => ({ type, nullable });
export const opt = (type: FieldType, def: PyValue = null): FieldSpec => ({
  type,
  nullable: def === null || undefined === def,
  default: def,
});

export type ValidationError = { type: string; loc: (string | number)[]; msg: string; input: PyValue };

const err = (type: string, msg: string, loc: (string | number)[], input: PyValue): ValidationError => ({
  type,
  loc,
  msg,
  input,
});

const TRUE = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

function coerce(type: FieldType, v: PyValue, loc: (string | number)[], errors: ValidationError[]): PyValue | undefined {
  switch (type) {
    case 'any':
      return v;
    case 'str':
      if (typeof v === 'string') return v;
      errors.push(err('string_type', 'Input should be a valid string', loc, v));
      return undefined;
    case 'int': {
      if (typeof v === 'boolean') return v ? 1 : 0;
      const n = numeric(v);
      if (n !== undefined) {
        if (Number.isInteger(n)) return n;
        errors.push(
          err('int_from_float', 'Input should be a valid integer, got a number with a fractional part', loc, v),
        );
        return undefined;
      }
      if (typeof v === 'string') {
        const s = v.trim();
        if (/^[+-]?\d+$/.test(s)) return Number(s);
        if (/^[+-]?\d+\.0*$/.test(s)) return Number(s);
        errors.push(
          err('int_parsing', 'Input should be a valid integer, unable to parse string as an integer', loc, v),
        );
        return undefined;
      }
      errors.push(err('int_type', 'Input should be a valid integer', loc, v));
      return undefined;
    }
    case 'float': {
      if (typeof v === 'boolean') return new PyFloat(v ? 1 : 0);
      const n = numeric(v);
      if (n !== undefined) return new PyFloat(n);
      if (typeof v === 'string') {
        const s = v.trim();
        if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return new PyFloat(Number(s));
        errors.push(err('float_parsing', 'Input should be a valid number, unable to parse string as a number', loc, v));
        return undefined;
      }
      errors.push(err('float_type', 'Input should be a valid number', loc, v));
      return undefined;
    }
    case 'bool': {
      if (typeof v === 'boolean') return v;
      const n = numeric(v);
      if (n === 0 || n === 1) return n === 1;
      if (typeof v === 'string') {
        const s = v.trim().toLowerCase();
        if (TRUE.has(s)) return true;
        if (FALSE.has(s)) return false;
      }
      if (typeof v === 'string' || n !== undefined)
        errors.push(err('bool_parsing', 'Input should be a valid boolean, unable to interpret input', loc, v));
      else errors.push(err('bool_type', 'Input should be a valid boolean', loc, v));
      return undefined;
    }
    case 'list':
    case 'list[str]': {
      if (!Array.isArray(v)) {
        errors.push(err('list_type', 'Input should be a valid list', loc, v));
        return undefined;
      }
      if (type === 'list') return v;
      const before = errors.length;
      const out = v.map((x, i) => coerce('str', x, [...loc, i], errors));
      return errors.length === before ? (out as PyValue[]) : undefined;
    }
  }
}

export type Validated = { ok: true; value: PyObject } | { ok: false; detail: ValidationError[] };

/**
 * `body` undefined means the request had no body at all (Claw-Eval's health probe); routes
 * whose body is optional then run with their no-body default.
 */
export function validateBody(model: RequestModel, body: PyValue | undefined, noBody?: PyObject): Validated {
  if (body === undefined) {
    if (noBody) return { ok: true, value: deepCopy(noBody) };
    return { ok: false, detail: [err('missing', 'Field required', ['body'], null)] };
  }
  if (!isObject(body))
    return {
      ok: false,
      detail: [
        err(
          'model_attributes_type',
          'Input should be a valid dictionary or object to extract fields from',
          ['body'],
          body,
        ),
      ],
    };
  const errors: ValidationError[] = [];
  const value: PyObject = {};
  for (const [name, spec] of Object.entries(model)) {
    const loc = ['body', name];
    if (!(name in body)) {
      if ('default' in spec) value[name] = deepCopy(spec.default as PyValue);
      else errors.push(err('missing', 'Field required', loc, body));
      continue;
    }
    const v = body[name]!;
    if (v === null && (spec.nullable || spec.type === 'any')) {
      value[name] = null;
      continue;
    }
    const c = coerce(spec.type, v, loc, errors);
    if (c !== undefined) value[name] = c;
  }
  return errors.length ? { ok: false, detail: errors } : { ok: true, value };
}

/** The defaults of a model whose fields all have one (the no-body case of list routes). */
export function modelDefaults(model: RequestModel): PyObject | undefined {
  const out: PyObject = {};
  for (const [name, spec] of Object.entries(model)) {
    if (!('default' in spec)) return undefined;
    out[name] = deepCopy(spec.default as PyValue);
  }
  return out;
}
