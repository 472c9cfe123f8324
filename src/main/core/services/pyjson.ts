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
const MAY_HOLD_FLOAT = /\d[.eE]/;

/** Parses JSON text, keeping numbers written with a '.' or an exponent as PyFloat. */
export function parsePyJson(text: string): PyValue {
  // A float token is a digit followed by '.', 'e' or 'E': without one (and without the marker) the
  // text parses as is, natively — most tool-call arguments and bodies hold no float.
  if (!MAY_HOLD_FLOAT.test(text) && !text.includes(FLOAT_MARK)) return JSON.parse(text) as PyValue;
  // A reviver sees only the number, not its source text; mark floats by rewriting them first.
  // Scanning tokens (not a regex over the whole text) keeps digits inside strings untouched.
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      let j = i + 1;
      while (j < text.length && /[0-9eE.+-]/.test(text[j]!)) j++;
      const tok = text.slice(i, j);
      if (/[.eE]/.test(tok)) {
        out += `"\\u0000pyfloat:${tok}"`;
      } else out += tok;
      i = j;
    } else {
      out += ch;
      i++;
    }
  }
  return JSON.parse(out, (_k, v) =>
    typeof v === 'string' && v.startsWith(FLOAT_MARK) ? new PyFloat(Number(v.slice(FLOAT_MARK.length))) : v,
  ) as PyValue;
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

export type DumpOptions = { itemSep?: string; keySep?: string };

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
  if (key === ':' && item === ',') return dumpsCompactNative(v, false) ?? dumpsPyJs(v, item, key);
  if (key === ': ' && item === ', ') {
    const compact = dumpsCompactNative(v, false);
    // In compact JSON every ',' and ':' outside a string is a separator.
    if (compact !== undefined) return compact.replace(TOKENS, (t) => (t === ',' ? ', ' : t === ':' ? ': ' : t));
  }
  return dumpsPyJs(v, item, key);
}
/** A JSON string (escapes included) or a separator of compact JSON. */
const TOKENS = /"(?:[^"\\]|\\.)*"|[,:]/g;

/** The writer in plain JS: any separators, every case (tests hold the native path to it). */
export function dumpsPyJs(v: PyValue | undefined, item: string, key: string): string {
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
      for (let i = 0; i < x.length; i++) out += (i ? item : '') + go(x[i]);
      return `${out}]`;
    }
    let out = '{';
    let first = true;
    for (const k in x) {
      out += (first ? '' : item) + str(k) + key + go(x[k]);
      first = false;
    }
    return `${out}}`;
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
 * (Python's repr differs), an object value undefined (dumpsPy writes null; with `dropUndefined`,
 * as withoutUndefined then dumpsPy, the key goes), an object that is not plain, and a lone
 * surrogate (JSON.stringify escapes it). A walk over the value finds the first ones and counts
 * the PyFloats; any of those, or a string that looks like the marker, and it answers undefined
 * (the caller writes with the JS writer): never different bytes.
 */
function dumpsCompactNative(v: PyValue | undefined, dropUndefined: boolean): string | undefined {
  const count = { floats: 0 };
  if (v === undefined || !nativeSafe(v, dropUndefined, count)) return undefined;
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
export const dumpsCompactDefined = (v: PyValue) =>
  dumpsCompactNative(v, true) ?? dumpsPyJs(withoutUndefined(v), ',', ':');

/** A copy without the keys whose value is undefined (dumpsPy would write them as null). */
export function withoutUndefined(v: PyValue): PyValue {
  if (v === null || typeof v !== 'object' || v instanceof PyFloat) return v;
  if (Array.isArray(v)) return v.map(withoutUndefined);
  const out: Record<string, PyValue> = {};
  for (const k in v) if (v[k] !== undefined) out[k] = withoutUndefined(v[k]!);
  return out;
}

/** Python copy.deepcopy of JSON-like data (PyFloat is immutable and shared). */
export function deepCopy<T extends PyValue>(v: T): T {
  if (Array.isArray(v)) return v.map(deepCopy) as T;
  if (isObject(v)) {
    const o: PyObject = {};
    for (const [k, x] of Object.entries(v)) o[k] = deepCopy(x);
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
    for (const k in v) o[k] = wireSnapshot(v[k]);
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
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && pyEquals(a[k], b[k]));
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
