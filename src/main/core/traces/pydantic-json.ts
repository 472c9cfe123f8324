import { flat, PyFloat, type PyValue } from '../py/pyjson';

/**
 * The JSON pydantic v2 writes with `model_dump_json()` — what Claw-Eval's trace writer puts on each
 * line (reference/claw-eval.md §8.1). It is NOT Python's json.dumps: separators are compact (',' and
 * ':'), and floats are formatted by pydantic-core, which differs from Python's repr at the small end:
 *
 *   value      json.dumps   model_dump_json
 *   1e-05      1e-05        0.00001        (decimal down to 1e-5, exponent from 1e-6: `1e-6`, `1.5e-7`)
 *   1e+16      1e+16        1e+16          (exponent from 1e16, with '+', unpadded)
 *   NaN, ±inf  NaN          null
 *
 * Verified against pydantic 2.13.4 / pydantic-core (test/traces/pydantic-json.test.ts holds the
 * values). Non-ASCII is written raw; only '"', '\' and control characters are escaped (\n \r \t \b \f,
 * others \u00XX) — the same as json.dumps(ensure_ascii=False).
 */
export function pydanticFloat(x: number): string {
  if (!Number.isFinite(x)) return 'null';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const a = Math.abs(x);
  // Both JS and pydantic print the shortest round-trip digits; only the layout differs.
  if (a >= 1e-4 && a < 1e16) {
    const s = String(x);
    return Number.isInteger(x) ? `${s}.0` : s;
  }
  const [mant, expStr] = x.toExponential().split('e') as [string, string];
  const exp = Number(expStr);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  if (exp >= -5 && exp < 0) return `${neg ? '-' : ''}0.${'0'.repeat(-exp - 1)}${digits}`;
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${neg ? '-' : ''}${m}e${exp < 0 ? '-' : '+'}${Math.abs(exp)}`;
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
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;
const quote = (s: string) =>
  NEEDS_ESCAPE.test(s)
    ? `"${s.replace(/["\\\u0000-\u001f]/g, (c) => ESC[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`
    : `"${s}"`;

/**
 * One value as pydantic's compact JSON. A JS number is an int when it is integral (pydantic's int
 * fields and JSON ints), a PyFloat is a float. Keys whose value is `undefined` are left out: an
 * optional field that was never set is not written (pydantic writes the fields a model declares;
 * ours declares the later upstream's cache-token fields as optional, see trace-events.ts).
 */
export function dumpsPydantic(v: PyValue | undefined): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return quote(v);
    case 'number':
      // Integers print all their digits (String(1e21) would give an exponent).
      return Number.isInteger(v) ? (Math.abs(v) < 1e21 ? String(v) : BigInt(v).toString()) : pydanticFloat(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (v instanceof PyFloat) return pydanticFloat(v.value);
  if (Array.isArray(v)) {
    let out = '[';
    let chunks: string[] | undefined;
    for (let i = 0; i < v.length; i++) {
      out += (i ? ',' : '') + dumpsPydantic(v[i]);
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
  for (const k in v) {
    const x = v[k];
    if (x === undefined) continue;
    out += `${(n ? ',' : '') + quote(k)}:${dumpsPydantic(x)}`;
    if ((++n & 1023) === 0) {
      (chunks ??= []).push(flat(out));
      out = '';
    }
  }
  return flat(chunks ? `${chunks.join('')}${out}}` : `${out}}`);
}

/** A typed float field: always written with a decimal point (pydantic `float` fields: 12 → 12.0). */
export const f = (x: number): PyFloat => new PyFloat(x);
