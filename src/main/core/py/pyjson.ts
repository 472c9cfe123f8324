import { spacedSeparators } from './json-separators';
import { lineCol, MAX_JSON_DEPTH, parseJsonText } from '../lib/json-input';

/**
 * JSON with Python's int/float distinction, because the tool-result text the model sees is
 * Python's json.dumps output: `328.0` and `328` differ, and so do `1e-05` and `0.00001`
 * (reference/claw-eval.md §7.3). A float is held as a PyFloat; everything else is plain JSON.
 */
export class PyFloat {
  constructor(readonly value: number) {}
  /** As a plain object ({"value": …}) to JSON.stringify, except inside the native dumps (a marker, see below). */
  toJSON(): unknown {
    return marking ? FLOAT_MARK + fastFloat(this.value) : { value: this.value };
  }
}
/** Set while dumpsCompactNative's JSON.stringify runs (synchronous: nothing else runs meanwhile). */
let marking = false;

export type PyValue = null | boolean | number | string | PyFloat | PyValue[] | { [k: string]: PyValue };
export type PyObject = { [k: string]: PyValue };

export const isObject = (v: unknown): v is PyObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof PyFloat);
export const numeric = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : v instanceof PyFloat ? v.value : undefined;

const FLOAT_MARK = '\u0000pyfloat:';
/**
 * Turns the marked strings back into PyFloats, in place. A JSON.parse reviver does the same but
 * calls back into JS for every value, several times slower on large input.
 */
function revive(v: unknown): unknown {
  if (typeof v === 'string')
    return v.charCodeAt(0) === 0 && v.startsWith(FLOAT_MARK) ? new PyFloat(Number(v.slice(FLOAT_MARK.length))) : v;
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (typeof x === 'object' || typeof x === 'string') v[i] = revive(x);
    }
  } else {
    const o = v as Record<string, unknown>;
    for (const k in o) {
      const x = o[k];
      if (typeof x === 'object' || typeof x === 'string') o[k] = revive(x);
    }
  }
  return v;
}

/** A number JSON allows but a double cannot hold, or nesting past MAX_JSON_DEPTH; `offset` locates it. */
export class PyJsonError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/**
 * Parses JSON text, keeping numbers written with a '.' or an exponent as PyFloat. Refuses (with a
 * PyJsonError) a number out of a double's range — `1e400` would become Infinity, which no JSON
 * writer can write back — and nesting deeper than MAX_JSON_DEPTH (every walker here recurses).
 * Integers beyond 2^53 are read as the nearest double (README: limits).
 */
export function parsePyJson(text: string): PyValue {
  // A reviver sees only the number, not its source text; mark floats by rewriting them first.
  // One scan by char code (strings skipped whole, so their digits stay untouched); the rewritten
  // text is built from slices joined once: += per token made a rope of millions of nodes on large input.
  const parts: string[] = [];
  let last = 0;
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 34) break;
        j += d === 92 ? 2 : 1;
      }
      i = j + 1;
    } else if (c === 91 || c === 123) {
      if (++depth > MAX_JSON_DEPTH) throw new PyJsonError(`nested deeper than ${MAX_JSON_DEPTH} levels`, i);
      i++;
    } else if (c === 93 || c === 125) {
      depth--;
      i++;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      let j = i + 1;
      let float = false;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d === 46 || d === 101 || d === 69) float = true;
        else if (!((d >= 48 && d <= 57) || d === 43 || d === 45)) break;
      }
      if (float || j - i > 15) {
        const tok = text.slice(i, j);
        if (Math.abs(Number(tok)) === Number.POSITIVE_INFINITY)
          throw new PyJsonError(
            `the number ${tok.length > 24 ? `${tok.slice(0, 24)}…` : tok} is out of range ` +
              '(beyond ±1.8e308, a 64-bit float)',
            i,
          );
        if (float) {
          parts.push(text.slice(last, i), `"\\u0000pyfloat:${tok}"`);
          last = j;
        }
      }
      i = j;
    } else i++;
  }
  if (!parts.length) return JSON.parse(text) as PyValue;
  parts.push(text.slice(last));
  return revive(JSON.parse(parts.join(''))) as PyValue;
}

/**
 * parsePyJson for input from outside: the value, or a message naming `source`, line and column
 * (not valid JSON, a number out of range, nested too deep). Never throws.
 */
export function parsePyJsonText(
  text: string,
  source: string,
): { ok: true; value: PyValue } | { ok: false; message: string } {
  try {
    return { ok: true, value: parsePyJson(text) };
  } catch (err) {
    if (err instanceof PyJsonError)
      return { ok: false, message: `${source}:${lineCol(text, err.offset)}: ${err.message}` };
    const check = parseJsonText(text, source);
    return { ok: false, message: check.ok ? `${source}: not valid JSON` : check.message };
  }
}

/** Python float repr: shortest round-trip digits; exponent form below 1e-4 and from 1e16. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mant, expStr] = x.toExponential().split('e') as [string, string];
  const exp = Number(expStr);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${neg ? '-' : ''}${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  let s: string;
  if (exp < 0) s = `0.${'0'.repeat(-exp - 1)}${digits}`;
  else if (digits.length <= exp + 1) s = `${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
  else s = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  return (neg ? '-' : '') + s;
}

const ESC: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};
const quote = (s: string) =>
  // ensure_ascii=False: non-ASCII raw; only quotes, backslashes and control characters escaped.
  `"${s.replace(/["\\\u0000-\u001f]/g, (c) => ESC[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;

export type DumpOptions = {
  itemSep?: string;
  keySep?: string;
  /** Leave out object keys whose value is undefined (default: written as null, as before). */
  omitUndefined?: boolean;
};

/**
 * V8 keeps `a + b` as a rope node (about 32 bytes) until the string is read, and reading a
 * character flattens it. A 100 MB output built by += from small numbers held 100 million nodes
 * (3 GB, out of memory): writers flatten every 1,024 pieces and every large result.
 */
export function flat(s: string): string {
  if (s.length > 4096) void s.charCodeAt(0);
  return s;
}

const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

/** Python float repr for the common range without the exponent juggling (same output as floatRepr). */
function fastFloat(x: number): string {
  const a = Math.abs(x);
  if (a >= 1e-4 && a < 1e16) {
    const s = String(x);
    return Number.isInteger(x) ? `${s}.0` : s;
  }
  return floatRepr(x);
}

/**
 * Python json.dumps(v, ensure_ascii=False); separators default to Python's (', ', ': ').
 * Hot path (every tool result, audit and stored run trajectory): with Python's or the compact
 * separators, the native JSON.stringify writes it where that gives the same bytes (below).
 */
export function dumpsPy(v: PyValue | undefined, o: DumpOptions = {}): string {
  const item = o.itemSep ?? ', ';
  const key = o.keySep ?? ': ';
  const omit = o.omitUndefined ?? false;
  if (key === ':' && item === ',') return dumpsCompactNative(v, omit) ?? dumpsPyJs(v, item, key, omit);
  if (key === ': ' && item === ', ') {
    const compact = dumpsCompactNative(v, omit);
    if (compact !== undefined) return spacedSeparators(compact);
  }
  return dumpsPyJs(v, item, key, omit);
}

/** The writer in plain JS: any separators, every case (tests hold the native path to it). */
export function dumpsPyJs(v: PyValue | undefined, item: string, key: string, omitUndefined = false): string {
  const str = (s: string) => (NEEDS_ESCAPE.test(s) ? quote(s) : `"${s}"`);
  const go = (x: PyValue | undefined): string => {
    if (x === null || x === undefined) return 'null';
    switch (typeof x) {
      case 'string':
        return str(x);
      case 'number':
        return Number.isInteger(x) ? String(x) : fastFloat(x);
      case 'boolean':
        return x ? 'true' : 'false';
    }
    if (x instanceof PyFloat) return fastFloat(x.value);
    if (Array.isArray(x)) {
      let out = '[';
      let chunks: string[] | undefined;
      for (let i = 0; i < x.length; i++) {
        out += (i ? item : '') + go(x[i]);
        if ((i & 1023) === 1023) {
          (chunks ??= []).push(flat(out));
          out = '';
        }
      }
      return flat(chunks ? `${chunks.join('')}${out}]` : `${out}]`);
    }
    let out = '{';
    let chunks: string[] | undefined;
    let n = 0;
    for (const k in x) {
      const val = x[k];
      if (val === undefined && omitUndefined) continue;
      out += (n ? item : '') + str(k) + key + go(val);
      if ((++n & 1023) === 0) {
        (chunks ??= []).push(flat(out));
        out = '';
      }
    }
    return flat(chunks ? `${chunks.join('')}${out}}` : `${out}}`);
  };
  return go(v);
}

const COMPACT: DumpOptions = { itemSep: ',', keySep: ':' };
/** Written by JSON.stringify as the string "\u0000pyfloat:<repr>", then unquoted. */
const FLOAT_OUT = /"\\u0000pyfloat:([^"]*)"/g;

/**
 * dumpsPy with compact separators through the native JSON.stringify (no replacer: V8's fast path),
 * which writes the same bytes for everything but: a PyFloat (its toJSON writes a marker string
 * while `marking`, unquoted after), a non-integer number outside [1e-4, 1e16) or not finite
 * (Python's repr differs), an object value undefined (dumpsPy writes null; with `omitUndefined`,
 * omitUndefined, the key goes), an object that is not plain, and a lone
 * surrogate (JSON.stringify escapes it). A walk over the value finds the first ones and counts
 * the PyFloats; any of those, or a string that looks like the marker, and it answers undefined
 * (the caller writes with the JS writer): never different bytes.
 */
function dumpsCompactNative(v: PyValue | undefined, omitUndefined: boolean): string | undefined {
  const count = { floats: 0 };
  if (v === undefined || !nativeSafe(v, omitUndefined, count)) return undefined;
  let text: string;
  marking = true;
  try {
    text = JSON.stringify(v);
  } finally {
    marking = false;
  }
  if (text.includes('\\ud')) return undefined;
  if (!count.floats) return text.includes(FLOAT_MARK_OUT) ? undefined : text;
  let seen = 0;
  const out = text.replace(FLOAT_OUT, (_m, repr: string) => (seen++, repr));
  return seen === count.floats ? out : undefined;
}

/** Whether JSON.stringify writes `x` as dumpsPy does (strings aside: checked on the text); counts PyFloats. */
function nativeSafe(x: unknown, dropUndefined: boolean, count: { floats: number }): boolean {
  if (typeof x === 'number') return Number.isInteger(x) || (Math.abs(x) >= 1e-4 && Math.abs(x) < 1e16);
  if (typeof x !== 'object' || x === null) return true;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) if (!nativeSafe(x[i], dropUndefined, count)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(x);
  if (proto === PyFloat.prototype) return ++count.floats > 0;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const k in x) {
    const y = (x as Record<string, unknown>)[k];
    if (y === undefined ? !dropUndefined : !nativeSafe(y, dropUndefined, count)) return false;
  }
  return true;
}
const FLOAT_MARK_OUT = '"\\u0000pyfloat:';

/** FastAPI/Starlette's JSONResponse: compact separators. */
export const dumpsCompact = (v: PyValue) => dumpsPy(v, COMPACT);

/** dumpsCompact(withoutUndefined(v)): keys whose value is undefined are left out (stored Trajectory JSON). */
export const dumpsCompactDefined = (v: PyValue) => dumpsPy(v, { ...COMPACT, omitUndefined: true });

/**
 * `o[k] = v` for a key read from data. A record may have a field named `__proto__` (legal JSON; Python's json reads it
 * as any other key), and assigning it would set the copy's prototype instead: the field would vanish.
 */
export function setField(o: PyObject, k: string, v: PyValue): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** A copy without the keys whose value is undefined (dumpsPy would write them as null). */
export function withoutUndefined(v: PyValue): PyValue {
  if (v === null || typeof v !== 'object' || v instanceof PyFloat) return v;
  if (Array.isArray(v)) return v.map(withoutUndefined);
  const out: PyObject = {};
  for (const k in v) if (v[k] !== undefined) setField(out, k, withoutUndefined(v[k]!));
  return out;
}

/** Python copy.deepcopy of JSON-like data (PyFloat is immutable and shared). */
export function deepCopy<T extends PyValue>(v: T): T {
  if (Array.isArray(v)) return v.map(deepCopy) as T;
  if (isObject(v)) {
    const o: PyObject = {};
    for (const [k, x] of Object.entries(v)) setField(o, k, deepCopy(x));
    return o as T;
  }
  return v;
}

/**
 * What a JSON round trip (dump, then parse) of `v` gives, without the text: a deep copy where a
 * non-integer number becomes a PyFloat (it would print with a '.') and -0 becomes 0.
 */
export function wireSnapshot(v: PyValue | undefined): PyValue {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number') return Number.isInteger(v) ? (Object.is(v, -0) ? 0 : v) : new PyFloat(v);
  if (Array.isArray(v)) return v.map(wireSnapshot);
  if (isObject(v)) {
    const o: PyObject = {};
    for (const k in v) setField(o, k, wireSnapshot(v[k]));
    return o;
  }
  return v;
}

/** Python ==, which is what equality filters use: 1 == 1.0, True == 1. */
export function pyEquals(a: PyValue | undefined, b: PyValue | undefined): boolean {
  const na = typeof a === 'boolean' ? Number(a) : numeric(a);
  const nb = typeof b === 'boolean' ? Number(b) : numeric(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => pyEquals(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && pyEquals(a[k], b[k]));
  }
  return a === b;
}

/** Plain JSON values (PyFloat → number), for code such as zod schemas that knows nothing of PyFloat. */
export const toPlain = (v: PyValue): unknown => JSON.parse(dumpsPy(v));

const parsedFixtures = new WeakMap<object, PyValue>();
/**
 * A stored fixture file's records, parsed once per fixture object: validation, environment
 * construction and its resets all read the same file (instances deep-copy before mutating).
 */
export function fixtureRecords(f: { content: string }): PyValue {
  let v = parsedFixtures.get(f);
  if (v === undefined) parsedFixtures.set(f, (v = parsePyJson(f.content)));
  return v;
}
