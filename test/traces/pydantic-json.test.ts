import { describe, expect, it } from 'vitest';
import { PyFloat } from '../../src/main/core/py/pyjson';
import { dumpsPydantic, pydanticFloat } from '../../src/main/core/traces/pydantic-json';

describe("pydantic's model_dump_json, as Claw-Eval's trace writer writes each line", () => {
  // Each expectation is what pydantic 2.13.4 printed for the same Python float (json.dumps differs
  // where noted: it writes 1e-05, 1e-06, 1e-07 and NaN/Infinity).
  it.each<[number, string]>([
    [0, '0.0'],
    [-0, '-0.0'],
    [328, '328.0'],
    [0.1, '0.1'],
    [2.675, '2.675'],
    [1 / 3, '0.3333333333333333'],
    [1e-4, '0.0001'],
    [1e-5, '0.00001'],
    [1.5e-5, '0.000015'],
    [1e-6, '1e-6'],
    [1.5e-6, '1.5e-6'],
    [-1e-7, '-1e-7'],
    [5e-324, '5e-324'],
    [9.999e15, '9999000000000000.0'],
    [1e16, '1e+16'],
    [1.5e16, '1.5e+16'],
    [-1e16, '-1e+16'],
    [1.234e20, '1.234e+20'],
    [1e21, '1e+21'],
    // biome-ignore lint/correctness/noPrecisionLoss: the literal is rounded on purpose, as Python's float() does
    [123456789012345678, '1.2345678901234568e+17'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [NaN, 'null'],
    [Infinity, 'null'],
  ])('float %s → %s', (x, want) => expect(pydanticFloat(x)).toBe(want));

  it('compact separators, ints as ints, PyFloat as floats, raw non-ASCII, JSON escapes only where needed', () => {
    const v = {
      a: [1, new PyFloat(2), 'é 名字 𝄞', null, true],
      'k"ey': '\u0000\n\t\u001f\u007f\u2028/\\',
      n: { big: 1e21 },
    };
    expect(dumpsPydantic(v)).toBe(
      '{"a":[1,2.0,"é 名字 ' +
        '𝄞",null,true],"k\\"ey":"\\u0000\\n\\t\\u001f\u007f\u2028/\\\\","n":{"big":1000000000000000000000}}',
    );
  });

  it('leaves out keys whose value is undefined (optional fields never set)', () => {
    expect(dumpsPydantic({ a: 1, b: undefined, c: 2 } as never)).toBe('{"a":1,"c":2}');
  });
});
