import { describe, expect, it } from 'vitest';
import { fromIsoFormat, parseStamp } from '../../src/main/core/py/pytime/isoformat';
import {
  fields,
  instant,
  plus,
  PyDateError,
  strftimeZ,
  timedeltaDays,
  type PyDateTime,
} from '../../src/main/core/py/pytime/pydatetime';
import { strptimeDate } from '../../src/main/core/py/pytime/strptime';

/** Expected values were produced by CPython 3.11's datetime (the stack upstream runs on). */
const show = (dt: PyDateTime) => {
  const [y, m, d, h, mi, s] = fields(dt);
  const us = Number(((dt.wall % 1_000_000n) + 1_000_000n) % 1_000_000n);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return (
    `${p(y, 4)}-${p(m)}-${p(d)}T${p(h)}:${p(mi)}:${p(s)}.${p(us, 6)} ` +
    `${dt.offset === null ? 'naive' : String(Number(dt.offset) / 1e6)}`
  );
};

describe('fromisoformat (CPython 3.11 C parser), after upstream replaces Z with +00:00', () => {
  const ok: [string, string][] = [
    ['2026-03-03T10:00:00Z', '2026-03-03T10:00:00.000000 0'],
    ['2026-03-03T10:00:00+08:00', '2026-03-03T10:00:00.000000 28800'],
    ['2026-03-03 10:00:00.5-05:30', '2026-03-03T10:00:00.500000 -19800'],
    ['2026-03-03T10:00:00', '2026-03-03T10:00:00.000000 naive'],
    ['2026-03-03', '2026-03-03T00:00:00.000000 naive'],
    ['20260303T1000', '2026-03-03T10:00:00.000000 naive'],
    ['2026-W10-3T10:00', '2026-03-04T10:00:00.000000 naive'],
    ['2026W103', '2026-03-04T00:00:00.000000 naive'],
    ['2020-W53-7', '2021-01-03T00:00:00.000000 naive'],
    ['2026-W53', '2026-12-28T00:00:00.000000 naive'],
    ['2026-03-03T10:00:00,1234567+0530', '2026-03-03T10:00:00.123456 19800'],
    ['2026-03-03中10:00', '2026-03-03T10:00:00.000000 naive'],
    ['2026-03-03T10:00:00.+08:00', '2026-03-03T10:00:00.000000 28800'],
    ['2026-03-03T10:00:00:00', '2026-03-03T10:00:00.000000 naive'],
    ['2026-03-03T10:00:00+00:00:00.5', '2026-03-03T10:00:00.000000 0'],
  ];
  it.each(ok)('parses %j', (s, want) => expect(show(parseStamp(s))).toBe(want));

  const bad = [
    '2026-03-03T24:00:00Z',
    '2026-02-29T10:00:00Z',
    '2026-03-03T10:00:00+24:00',
    '2026-03-03T',
    '2026-3-3T10:00',
    '2026-03-03T10:00é',
    'tomorrow 10am',
    '2026-03-03T10:00:00 ',
    '2026-03-03T10:0',
    '2025-W53',
    '2026',
  ];
  it.each(bad)('rejects %j', (s) => expect(() => parseStamp(s)).toThrow(PyDateError));

  it('rejects non-strings as AttributeError and reads a lone Z differently from the replaced one', () => {
    expect(() => parseStamp(5)).toThrow(/AttributeError/);
    expect(() => fromIsoFormat('2026-03-03T10:00:00Zjunk')).toThrow(PyDateError);
    expect(show(fromIsoFormat('2026-03-03T10:00:00Z'))).toBe('2026-03-03T10:00:00.000000 0');
  });

  it('naive datetimes cannot be compared with aware ones', () => {
    expect(() => instant(parseStamp('2026-03-03T10:00:00'))).toThrow(/offset-naive/);
    expect(instant(parseStamp('2026-03-03T10:00:00+08:00'))).toBe(instant(parseStamp('2026-03-03T02:00:00Z')));
  });
});

describe('strptime %Y-%m-%d', () => {
  const day = (s: string) => strptimeDate(s) ?? null;
  it('accepts one-digit months and days, a space-padded day, and Unicode digits in the year', () => {
    const d = Date.UTC(2026, 2, 5) / 86_400_000;
    expect([day('2026-03-05'), day('2026-3-5'), day('2026-03- 5'), day('２０２６-03-05'), day('2026-03-0٥')]).toEqual([
      d,
      d,
      d,
      d,
      null,
    ]);
    expect(day('2024-02-29')).toBe(Date.UTC(2024, 1, 29) / 86_400_000);
  });

  it('rejects trailing text, impossible dates, year 0 and other separators', () => {
    for (const s of [
      '2026-03-05 ',
      '2026-03-05T00:00',
      '2026-02-29',
      '0000-01-01',
      '2026/03/05',
      '20260305',
      '2026-13-01',
      '2026-1-010',
      ' 2026-03-05',
    ]) {
      expect(day(s), s).toBeNull();
    }
  });
});

describe('shift arithmetic', () => {
  it('prints the wall time in the own offset with a literal Z and drops microseconds', () => {
    expect(strftimeZ(parseStamp('2026-03-03T10:00:00.999999+08:00'))).toBe('2026-03-03T10:00:00Z');
    expect(strftimeZ(plus(parseStamp('2026-03-03T23:30:00-05:00'), 3_600_000_000n))).toBe('2026-03-04T00:30:00Z');
    // glibc's %Y: no zero padding below year 1000.
    expect(strftimeZ(parseStamp('0999-01-01T00:00:00+00:00'))).toBe('999-01-01T00:00:00Z');
  });

  it('overflows outside years 1–9999 and beyond timedelta limits', () => {
    expect(() => plus(parseStamp('9999-12-31T23:00:00Z'), 3_600_000_000n)).toThrow(/OverflowError/);
    expect(() => plus(parseStamp('0001-01-01T00:00:00Z'), -1n)).toThrow(/OverflowError/);
    expect(() => timedeltaDays(1_000_000_000)).toThrow(/OverflowError/);
    expect(timedeltaDays(-2)).toBe(-172_800_000_000n);
  });
});
