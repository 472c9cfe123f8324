import { describe, expect, it } from 'vitest';
import {
  dumpsCompact,
  dumpsCompactDefined,
  dumpsPy,
  dumpsPyJs,
  PyFloat,
  type PyValue,
  withoutUndefined,
} from '../../src/main/core/py/pyjson';

/** Seeded values with every case where JSON.stringify and Python's json.dumps part ways. */
function values(seed: number, n: number): PyValue[] {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const strings = [
    'plain',
    'quote " and \\ backslash',
    'ctl \u0000\u0001\b\f\n\r\t\u001f\u007f',
    '中文 émoji 😀',
    'lone \ud800 high',
    'lone \udc00 low',
    'text \\ud800 escaped',
    '\u0000pyfloat:1.5',
    '"\\u0000pyfloat:2"',
    '1.5e-7, 0.00001: "x"',
    'ends in a backslash \\',
    '\\", {"k": [1, 2]}: \\\\',
    '\u2028\u2029',
    '',
  ];
  const numbers = [0, -0, 1, -7, 2 ** 53, 1e21, 0.5, -2.25, 1e-4, 9.99e-5, 1e-5, 1e-7, 3e-300, 1e16 + 2, 123.456];
  const odd = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, undefined, new Date(0)] as PyValue[];
  const gen = (depth: number): PyValue => {
    const r = rnd();
    if (depth > 3 || r < 0.3) return pick(strings);
    if (r < 0.45) return pick(numbers);
    if (r < 0.5) return new PyFloat(pick([...numbers, Number.NaN, Number.POSITIVE_INFINITY]));
    if (r < 0.53) return pick(odd);
    if (r < 0.58) return pick([true, false, null]);
    if (r < 0.78) return Array.from({ length: Math.floor(rnd() * 4) }, () => gen(depth + 1));
    const o: Record<string, PyValue> = {};
    for (let i = Math.floor(rnd() * 4); i > 0; i--) o[pick([...strings, 'a', 'b', '10', '2'])] = gen(depth + 1);
    return o;
  };
  return Array.from({ length: n }, () => gen(0));
}

describe('the native JSON writer', () => {
  it('writes exactly what the plain writer writes, with either separators, on 20,000 odd values', () => {
    for (const v of values(7, 20_000)) {
      expect(dumpsPy(v, { itemSep: ',', keySep: ':' })).toBe(dumpsPyJs(v, ',', ':'));
      expect(dumpsCompact(v)).toBe(dumpsPyJs(v, ',', ':'));
      expect(dumpsPy(v)).toBe(dumpsPyJs(v, ', ', ': '));
      expect(dumpsCompactDefined(v)).toBe(dumpsPyJs(withoutUndefined(v), ',', ':'));
      expect(dumpsPy(v, { omitUndefined: true })).toBe(dumpsPyJs(v, ', ', ': ', true));
    }
  });
});
