import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readRecord } from '../../src/main/core/trajectories/formats';
import { plainCopy } from '../../src/main/core/trajectories/load-trajectory';
import { dumpsPy, PyFloat, type PyValue, toPlain, withoutUndefined } from '../../src/main/core/py/pyjson';
import { FULL_DATA } from '../helpers/shared-data';
import { hasTrajCorpus, TAU2_RESULTS, TAU2_SFT, TAU_BENCH } from '../helpers/trajectory-import';

/** What loadTrajectory did before issue 17: write the trajectory as Python JSON and parse it back. */
const byText = (v: PyValue) => toPlain(withoutUndefined(v));
const same = (v: PyValue) => {
  const fast = plainCopy(v);
  expect(fast).toEqual(byText(v));
  expect(dumpsPy(fast as PyValue)).toBe(dumpsPy(byText(v) as PyValue));
};

describe('plainCopy: a stored record read back as the text round trip gives it, without the text', () => {
  // Counts the full corpora's 257 trajectories: not on the shipped subset.
  it.skipIf(!(hasTrajCorpus && FULL_DATA))(
    'every corpus trajectory (τ-bench, τ² results, τ² SFT) comes out identical',
    () => {
      const tau2 = JSON.parse(fs.readFileSync(TAU2_RESULTS, 'utf8')) as Record<string, unknown> & {
        simulations: unknown[];
      };
      const { simulations, ...header } = tau2;
      const records: [string, string, Record<string, unknown> | null][] = [
        ...(JSON.parse(fs.readFileSync(TAU_BENCH, 'utf8')) as unknown[]).map(
          (r) => ['tau-bench', JSON.stringify(r), null] as [string, string, null],
        ),
        ...simulations.map((s) => ['tau2', JSON.stringify(s), header] as [string, string, Record<string, unknown>]),
        ...fs
          .readFileSync(TAU2_SFT, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => ['openai-jsonl', l, null] as [string, string, null]),
      ];
      expect(records.length).toBe(257);
      for (const [format, text, h] of records)
        same(readRecord(format as 'tau2', text, { file: 'f', header: h, stored: true }).trajectory as never);
    },
  );

  it('floats, -0, undefined members and array slots, a "__proto__" key; NaN fails as it did', () => {
    const proto = JSON.parse('{"__proto__": {"x": 1}, "a": 2}') as PyValue;
    same({ f: new PyFloat(1), g: new PyFloat(-0), z: -0, big: 1e21, small: 1e-7, u: undefined, n: null } as never);
    same({ list: [1, undefined, new PyFloat(2.5), 'é\ud800'], nested: { proto } } as never);
    expect(Object.keys((plainCopy(proto) as object) ?? {})).toEqual(['__proto__', 'a']);
    expect(() => plainCopy({ bad: Number.NaN })).toThrow();
    expect(() => byText({ bad: Number.NaN })).toThrow();
    const inf = { x: new PyFloat(Number.POSITIVE_INFINITY) };
    expect(() => plainCopy(inf)).toThrow();
  });

  it('shares nothing with its input (a cached τ² header stays untouched)', () => {
    const header = { tools: [{ type: 'function', function: { name: 'f' } }] };
    const copy = plainCopy(header as never) as typeof header;
    copy.tools[0]!.function.name = 'changed';
    expect(header.tools[0]!.function.name).toBe('f');
  });
});
