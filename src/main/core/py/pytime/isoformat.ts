import { civilFromDays, datetimeOf, ordinal, PyDateError, US, type PyDateTime } from './pydatetime';

/**
 * CPython 3.11's C `datetime.fromisoformat`, which decides whether a stored calendar start_time
 * crashes every later list call (Q16): it parses, or raises. It works on the UTF-8 bytes and
 * accepts more than ISO 8601 (any separator character, ISO weeks, "HHMM", "HH", a comma before
 * the fraction, more than 6 fraction digits…); a missing offset gives a naive datetime.
 * Its reads past a field's end land on the next byte or on the NUL terminator — `at` keeps that.
 */

const DASH = 0x2d;
const COLON = 0x3a;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isSurrogate = (c: string | undefined) =>
  c !== undefined && c.length === 1 && c.charCodeAt(0) >= 0xd800 && c.charCodeAt(0) <= 0xdfff;

type Bytes = { at(i: number): number; len: number };

function digits(b: Bytes, p: number, n: number): number | null {
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = b.at(p + i);
    if (!isDigit(c)) return null;
    v = v * 10 + c - 0x30;
  }
  return v;
}

/** Where the date ends: 7, 8 or 10, guessed from characters 4, 5, 8 and 10; -1 when invalid. */
function separatorLocation(b: Bytes): number {
  const { len } = b;
  if (len === 7) return 7;
  if (b.at(4) === DASH) {
    if (b.at(5) !== 0x57 /* W */) return 10;
    if (len > 8 && b.at(8) === DASH) {
      if (len === 9) return -1;
      return len > 10 && isDigit(b.at(10)) ? 8 : 10;
    }
    return 8;
  }
  if (b.at(4) !== 0x57) return 8;
  let idx = 7;
  while (idx < len && isDigit(b.at(idx))) idx++;
  if (idx < 9) return idx;
  return idx % 2 === 0 ? 7 : 8;
}

function isoToYmd(year: number, week: number, day: number): [number, number, number] | null {
  if (week <= 0 || week >= 53) {
    const firstWeekday = (ordinal(year, 1, 1) + 6) % 7;
    const has53 =
      firstWeekday === 3 || (firstWeekday === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0));
    if (week !== 53 || !has53) return null;
  }
  if (day <= 0 || day >= 8) return null;
  const first = ordinal(year, 1, 1);
  const firstWeekday = (first + 6) % 7;
  const week1Monday = first - firstWeekday + (firstWeekday > 3 ? 7 : 0);
  return civilFromDays(week1Monday + (week - 1) * 7 + day - 1 - 719163);
}

function parseDate(b: Bytes, len: number): [number, number, number] | null {
  let p = 0;
  const year = digits(b, p, 4);
  if (year === null) return null;
  p += 4;
  const sep = b.at(p) === DASH;
  if (sep) p++;
  if (b.at(p) === 0x57) {
    p++;
    const week = digits(b, p, 2);
    if (week === null) return null;
    p += 2;
    let day = 1;
    if (p < len) {
      if (sep && b.at(p++) !== DASH) return null;
      const d = digits(b, p, 1);
      if (d === null) return null;
      day = d;
    }
    return isoToYmd(year, week, day);
  }
  const month = digits(b, p, 2);
  if (month === null) return null;
  p += 2;
  if (sep && b.at(p++) !== DASH) return null;
  const day = digits(b, p, 2);
  return day === null ? null : [year, month, day];
}

type Hms = { rv: number; v: [number, number, number]; us: number };

/** `[HH[:?MM[:?SS]]][.,fraction]` up to `end`; rv 0 = clean end, 1 = something follows, < 0 = error. */
function parseHmsf(b: Bytes, start: number, end: number): Hms {
  const v: [number, number, number] = [0, 0, 0];
  let p = start;
  let hasSep = true;
  for (let i = 0; i < 3; i++) {
    const n = digits(b, p, 2);
    if (n === null) return { rv: -3, v, us: 0 };
    v[i] = n;
    p += 2;
    const c = b.at(p++);
    if (i === 0) hasSep = c === COLON;
    if (p >= end) return { rv: c !== 0 ? 1 : 0, v, us: 0 };
    if (hasSep && c === COLON) continue;
    if (c === 0x2e || c === 0x2c) break;
    if (!hasSep) p--;
    else return { rv: -4, v, us: 0 };
  }
  const toParse = Math.min(end - p, 6);
  let us = digits(b, p, toParse);
  if (us === null) return { rv: -3, v, us: 0 };
  us *= 10 ** (6 - toParse);
  p += toParse;
  while (isDigit(b.at(p))) p++;
  return { rv: b.at(p) !== 0 ? 1 : 0, v, us };
}

export function fromIsoFormat(input: string): PyDateTime {
  // Fixture timestamps are parsed again by every environment built from them (a run builds one per
  // trajectory) and by every query over them: a parse is pure, its value immutable — keep the last few thousand.
  let d = parsed.get(input);
  if (d === undefined) {
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(input, (d = Object.freeze(parseIsoFormat(input))));
  }
  return d;
}
const parsed = new Map<string, PyDateTime>();
const PARSED_MAX = 8192;

function parseIsoFormat(input: string): PyDateTime {
  const invalid = () => new PyDateError(`ValueError: Invalid isoformat string: '${input}'`);
  const cps = Array.from(input);
  if (cps.length < 7) throw invalid();
  // Any non-ASCII character (even a lone surrogate) is tolerated as the separator: the first one
  // at code point 7, 8 or 10 is read as 'T'. Elsewhere it fails as UTF-8 bytes (or to encode).
  for (const pos of [7, 8, 10]) {
    if (pos > cps.length) break;
    if ((cps[pos]?.codePointAt(0) ?? 0) > 0x7f) {
      cps[pos] = 'T';
      break;
    }
  }
  if (cps.some(isSurrogate)) throw invalid();
  const bytes = new TextEncoder().encode(cps.join(''));
  const b: Bytes = { at: (i) => bytes[i] ?? 0, len: bytes.length };

  const sepAt = separatorLocation(b);
  if (sepAt < 0) throw invalid();
  const date = parseDate(b, sepAt);
  if (!date) throw invalid();
  if (b.len <= sepAt) return datetimeOf(...date, 0, 0, 0, 0, null);

  const start = sepAt + 1;
  const end = b.len;
  let tz = start;
  do {
    const c = b.at(tz);
    if (c === 0x5a /* Z */ || c === 0x2b || c === DASH) break;
  } while (++tz < end);
  const t = parseHmsf(b, start, tz);
  if (t.rv < 0) throw invalid();
  if (tz === end) {
    if (t.rv === 1) throw invalid();
    return datetimeOf(...date, ...t.v, t.us, null);
  }
  if (b.at(tz) === 0x5a) {
    if (b.at(tz + 1) !== 0) throw invalid();
    return datetimeOf(...date, ...t.v, t.us, 0n);
  }
  const sign = b.at(tz) === DASH ? -1 : 1;
  const o = parseHmsf(b, tz + 1, end);
  if (o.rv !== 0) throw invalid();
  const seconds = sign * (o.v[0] * 3600 + o.v[1] * 60 + o.v[2]);
  // A zero-second offset is UTC itself: its microseconds are dropped.
  const offset = seconds === 0 ? 0n : BigInt(seconds) * US + BigInt(sign * o.us);
  return datetimeOf(...date, ...t.v, t.us, offset);
}

/** Upstream's `datetime.fromisoformat(value.replace("Z", "+00:00"))`; a non-string raises AttributeError. */
export function parseStamp(value: unknown): PyDateTime {
  if (typeof value !== 'string') throw new PyDateError("AttributeError: object has no attribute 'replace'");
  return fromIsoFormat(value.replaceAll('Z', '+00:00'));
}
