import { describe, expect, it } from 'vitest';
import { dumpsCompact, dumpsPy, floatRepr, parsePyJson, PyFloat, wireSnapshot } from '../../src/main/core/py/pyjson';

/** Expected strings are what CPython 3.11 prints (repr(float), json.dumps(..., ensure_ascii=False)). */
describe('Python-compatible JSON', () => {
  it.each([
    [328, '328.0'],
    [0.02, '0.02'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [1e16, '1e+16'],
    [1.5e16, '1.5e+16'],
    [123456789.5, '123456789.5'],
    [1e15, '1000000000000000.0'],
    [-3.5, '-3.5'],
    [1e22, '1e+22'],
    [5e-324, '5e-324'],
    [-0, '-0.0'],
    [0.1 + 0.2, '0.30000000000000004'],
  ])('repr(%s) = %s', (x, want) => {
    expect(floatRepr(x)).toBe(want);
    expect(dumpsPy(new PyFloat(x))).toBe(want);
  });

  it('keeps the int/float distinction through parse and dump', () => {
    const text = '{"a": 328.0, "b": [1, 2.5e3, -0.0, 1E-7], "c": 12}';
    expect(dumpsPy(parsePyJson(text))).toBe('{"a": 328.0, "b": [1, 2500.0, -0.0, 1e-07], "c": 12}');
    expect(dumpsCompact(parsePyJson(text))).toBe('{"a":328.0,"b":[1,2500.0,-0.0,1e-07],"c":12}');
  });

  it('leaves digits inside strings alone and escapes like json.dumps with ensure_ascii=False', () => {
    const v = parsePyJson('{"s": "v1.0 \\"q\\" \\\\ 中文\\n\\t\\u0001", "k.1": 2}');
    expect(dumpsPy(v)).toBe('{"s": "v1.0 \\"q\\" \\\\ 中文\\n\\t\\u0001", "k.1": 2}');
  });

  it('wireSnapshot equals a dump-and-parse round trip, and is a copy', () => {
    const src = { a: [1, 2.5, -0, null], b: { c: 'x', d: new PyFloat(3) }, e: true };
    const snap = wireSnapshot(src);
    expect(dumpsPy(snap)).toBe(dumpsPy(parsePyJson(dumpsPy(src))));
    src.a.push(9);
    expect(dumpsPy(snap)).toBe('{"a": [1, 2.5, 0, null], "b": {"c": "x", "d": 3.0}, "e": true}');
  });
});
