import { describe, expect, it } from 'vitest';
import { jsonLine } from '../../src/main/core/export/sft/json-line';
import { codePoints, truncateCodePoints } from '../../src/main/core/export/sft/text';
import { dumpsCompact, parsePyJson, PyFloat, type PyValue } from '../../src/main/core/py/pyjson';

describe('jsonLine writes the bytes of Python json.dumps(ensure_ascii=False, compact)', () => {
  const cases: PyValue[] = [
    { a: 'plain', b: 'line\nbreak\ttab "quoted" back\\slash \u0001\u001f\u007f', c: '中文 😀 é' },
    { n: [0, -1, 1.5, 0.1, 1e-4, 9.99e-5, 1e-7, 1e15, 1e16, 1e21, 123456789012, -0.25] },
    { f: new PyFloat(328), g: new PyFloat(1e-5), h: new PyFloat(-0), i: new PyFloat(2.5), j: [new PyFloat(1e16)] },
    [null, true, false, [], {}, [[{ deep: [new PyFloat(3)] }]]],
    { 'key "quoted"\n': 1, 中: '文' },
    'a string alone',
    42,
  ];
  it.each(cases.map((c, i) => [i, c]))('case %i equals dumpsCompact', (_i, c) => {
    expect(jsonLine(c as PyValue)).toBe(dumpsCompact(c as PyValue));
  });

  it('round-trips through the float-aware parser', () => {
    const text = '{"amount":328.0,"rate":1e-05,"n":3,"s":"x\\ny"}';
    expect(jsonLine(parsePyJson(text))).toBe(text);
  });

  it('skips undefined object values (absent keys), as a JSON object has no undefined', () => {
    expect(jsonLine({ a: 1, b: undefined } as unknown as PyValue)).toBe('{"a":1}');
  });
});

describe('code points (Python len)', () => {
  it('counts astral characters once and truncates without splitting a pair', () => {
    expect(codePoints('a😀b')).toBe(3);
    expect(codePoints('中文')).toBe(2);
    expect(truncateCodePoints('a😀b😀', 2)).toBe('a😀');
    expect(truncateCodePoints('😀😀😀', 1)).toBe('😀');
    expect(truncateCodePoints('abc', 5)).toBe('abc');
    // A lone high surrogate counts as one code point, as in Python.
    expect(truncateCodePoints('\uD800x', 1)).toBe('\uD800');
  });
});
