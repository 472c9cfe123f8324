import { deepCopy, isObject, type PyObject, type PyValue } from '../py/pyjson';

/** Small helpers shared by the service folders (Python semantics that JS lacks). */

/** Python list[:n] — n = 0 → empty, negative n drops the last |n| items. */
export const pySlice = <T>(list: T[], n: number): T[] => list.slice(0, n < 0 ? Math.max(0, list.length + n) : n);

/** The records of a fixture array as objects (upstream indexes them by key; non-objects are skipped). */
export const objects = (records: PyValue[]): PyObject[] => records.filter(isObject);

/** `{"error": "<Thing> <id> not found"}` — HTTP 200, logged (Q5). */
export const notFound = (thing: string, id: PyValue): PyObject => ({ error: `${thing} ${String(id)} not found` });

/** Python: [r for r in items if r.get(key) == value] then the first, or undefined. */
export const findBy = (items: PyObject[], key: string, id: PyValue): PyObject | undefined =>
  items.find((r) => r[key] === id);

/** A projection: only these keys, in this order; a missing key raises KeyError upstream (→ 500). */
export function project(r: PyObject, keys: readonly string[]): PyObject {
  const out: PyObject = {};
  for (const k of keys) {
    if (!(k in r)) throw new Error(`KeyError: ${k}`);
    out[k] = r[k]!;
  }
  return out;
}

export { deepCopy };

/** mulberry32: a small seeded PRNG, so error injection is repeatable (upstream uses Python's random). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
