import { floatRepr, PyFloat, type PyValue } from '../../py/pyjson';

/** Python float repr; the common range without floatRepr's exponent handling (same output). */
function float(x: number): string {
  const a = Math.abs(x);
  if (a >= 1e-4 && a < 1e16) {
    const s = String(x);
    return Number.isInteger(x) ? `${s}.0` : s;
  }
  return floatRepr(x);
}

/**
 * One compact JSON line, as Python's json.dumps(v, ensure_ascii=False, separators=(',', ':'))
 * writes it (formats.md: UTF-8, non-ASCII kept, PyFloat 328.0 stays 328.0) — the bytes of
 * dumpsCompact, but strings are quoted by the engine's JSON.stringify, whose escapes are Python's
 * (\n \t \" \\ and \u00XX in lower-case hex). The one difference: a lone surrogate becomes a
 * \udXXX escape instead of a raw code unit Python could not encode as UTF-8 anyway.
 * This is the export's hot path: most of a row's bytes are message text.
 */
export function jsonLine(v: PyValue | undefined): string {
  return nativeSafe(v) ? (JSON.stringify(v) ?? 'null') : pyLine(v);
}

/**
 * True when JSON.stringify writes exactly Python's bytes for `v`: no PyFloat, and every number an
 * integer below 1e21 or a float in the range where both print the shortest round-trip digits the
 * same way. The walk builds no strings, so it costs far less than the JS serialiser it avoids.
 */
function nativeSafe(v: PyValue | undefined): boolean {
  if (v === null || v === undefined) return true;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number': {
      const a = Math.abs(v);
      return Number.isInteger(v) ? a < 1e21 && !Object.is(v, -0) : a >= 1e-4 && a < 1e16;
    }
  }
  if (v instanceof PyFloat) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!nativeSafe(v[i])) return false;
    return true;
  }
  for (const k in v) if (!nativeSafe(v[k])) return false;
  return true;
}

function pyLine(v: PyValue | undefined): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isInteger(v) ? String(v) : float(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (v instanceof PyFloat) return float(v.value);
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + pyLine(v[i]);
    return `${out}]`;
  }
  let out = '{';
  let first = true;
  for (const k in v) {
    const x = v[k];
    if (x === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(k)}:${pyLine(x)}`;
    first = false;
  }
  return `${out}}`;
}
