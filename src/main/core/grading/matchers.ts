import type { Matcher } from '../../../shared/contract/entities/checks';
import { numeric, PyFloat } from '../py/pyjson';

/** `a.b.0.c` into nested objects and arrays; undefined when absent. */
export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** A number (PyFloat included), or a numeric string. */
const num = (v: unknown): number | undefined => {
  const n = numeric(v);
  if (n !== undefined) return n;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
};

/** JSON text of a value with PyFloat as the number it holds (else it would print as {"value": …}). */
const stringify = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (x instanceof PyFloat ? x.value : x));

const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : stringify(v));

function sameValue(a: unknown, b: unknown, ci: boolean): boolean {
  const na = num(a);
  const nb = num(b);
  if (na !== undefined && nb !== undefined && typeof a !== 'string' && typeof b !== 'string') return na === nb;
  if (typeof a === 'string' && typeof b === 'string') return ci ? a.toLowerCase() === b.toLowerCase() : a === b;
  return stringify(a) === stringify(b);
}

/** Does `value` satisfy `m`? Arrays satisfy `contains` when any element (or the joined text) does. */
export function matchValue(value: unknown, m: Matcher): boolean {
  const ci = 'case_insensitive' in m && m.case_insensitive === true;
  if ('exists' in m) return (value !== undefined && value !== null) === m.exists;
  if (value === undefined) return false;
  if ('equals' in m) return sameValue(value, m.equals, ci);
  if ('one_of' in m) return m.one_of.some((x) => sameValue(value, x, ci));
  if ('contains' in m) {
    const hay = Array.isArray(value) ? value.map(text) : [text(value)];
    const needle = ci ? m.contains.toLowerCase() : m.contains;
    return hay.some((h) => (ci ? h.toLowerCase() : h).includes(needle));
  }
  if ('regex' in m) {
    const re = new RegExp(m.regex, ci ? 'i' : '');
    return (Array.isArray(value) ? value.map(text) : [text(value)]).some((h) => re.test(h));
  }
  if ('includes_all' in m)
    return Array.isArray(value) && m.includes_all.every((x) => value.some((v) => sameValue(v, x, false)));
  if ('any_not_in' in m)
    return (Array.isArray(value) ? value : [value]).some((v) => !m.any_not_in.some((x) => sameValue(v, x, ci)));
  const n = num(value);
  if ('outside' in m) return n !== undefined && !m.outside.some((r) => inRange(n, r));
  return n !== undefined && inRange(n, m.range);
}

const inRange = (n: number, r: { min?: number | undefined; max?: number | undefined }) =>
  (r.min === undefined || n >= r.min) && (r.max === undefined || n <= r.max);

export function matchFields(obj: unknown, fields: Record<string, Matcher> | undefined): boolean {
  if (!fields) return true;
  return Object.entries(fields).every(([path, m]) => matchValue(getPath(obj, path), m));
}
