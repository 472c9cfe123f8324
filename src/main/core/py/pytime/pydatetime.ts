/**
 * The pieces of CPython 3.11's datetime that gmail and calendar depend on (reference/claw-eval.md
 * §6.4, §6.5, Q3, Q16), reproduced closely enough to fail exactly where upstream fails: a failure
 * there is an uncaught exception, i.e. a plain-text 500 (or a service that never starts).
 * Times are BigInt microseconds: Python keeps microseconds, JS Dates only milliseconds.
 * Calendar imports these modules too (both services shift fixture dates the same way).
 */

/** ValueError / TypeError / OverflowError alike: upstream never catches them around this code. */
export class PyDateError extends Error {}

/** `wall`: µs from 1970-01-01T00:00 to the wall-clock fields; `offset`: utcoffset in µs, null when naive. */
export type PyDateTime = { wall: bigint; offset: bigint | null };

export const US = 1_000_000n;
export const DAY = 86_400n * US;

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's algorithm; any year). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [m <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, m, d];
}

const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const daysInMonth = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
/** Python's date ordinal (0001-01-01 is 1). */
export const ordinal = (y: number, m: number, d: number) => daysFromCivil(y, m, d) + 719163;

const MIN_WALL = BigInt(daysFromCivil(1, 1, 1)) * DAY;
const MAX_WALL = BigInt(daysFromCivil(9999, 12, 31) + 1) * DAY - 1n;

const floorDiv = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b));

export function datetimeOf(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  us: number,
  offset: bigint | null,
): PyDateTime {
  // The datetime constructor's range checks.
  if (y < 1 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo))
    throw new PyDateError('ValueError: day is out of range for month');
  if (h > 23 || mi > 59 || s > 59) throw new PyDateError('ValueError: time field out of range');
  if (offset !== null && (offset <= -DAY || offset >= DAY))
    throw new PyDateError('ValueError: offset must be strictly between -24h and 24h');
  const wall = BigInt(daysFromCivil(y, mo, d)) * DAY + BigInt((h * 60 + mi) * 60 + s) * US + BigInt(us);
  return { wall, offset };
}

/** `record[key]`: a missing key is a KeyError upstream (→ 500). */
export function field(r: Record<string, unknown>, key: string): unknown {
  if (!(key in r)) throw new PyDateError(`KeyError: '${key}'`);
  return r[key]!;
}

export const fromDate = (d: Date): PyDateTime => ({ wall: BigInt(d.getTime()) * 1000n, offset: 0n });

/** The UTC instant of an aware datetime; a naive one cannot be compared with an aware one. */
export function instant(dt: PyDateTime): bigint {
  if (dt.offset === null) throw new PyDateError("TypeError: can't compare offset-naive and offset-aware datetimes");
  return dt.wall - dt.offset;
}

/** datetime + timedelta: wall-clock arithmetic keeping the tzinfo; OverflowError outside years 1–9999. */
export function plus(dt: PyDateTime, delta: bigint): PyDateTime {
  const wall = dt.wall + delta;
  if (wall < MIN_WALL || wall > MAX_WALL) throw new PyDateError('OverflowError: date value out of range');
  return { wall, offset: dt.offset };
}

/** timedelta(days=n). */
export function timedeltaDays(n: number): bigint {
  if (!Number.isInteger(n) || Math.abs(n) > 999_999_999)
    throw new PyDateError(`OverflowError: days=${n}; must have magnitude <= 999999999`);
  return BigInt(n) * DAY;
}

/** The wall-clock fields (year, month, day, hour, minute, second) of a datetime in its own offset. */
export function fields(dt: PyDateTime): [number, number, number, number, number, number] {
  const days = floorDiv(dt.wall, DAY);
  const secs = Number((dt.wall - days * DAY) / US);
  const [y, m, d] = civilFromDays(Number(days));
  return [y, m, d, Math.floor(secs / 3600), Math.floor((secs % 3600) / 60), secs % 60];
}

const p2 = (n: number) => String(n).padStart(2, '0');

/**
 * strftime('%Y-%m-%dT%H:%M:%SZ'): the wall time in the datetime's OWN offset followed by a literal
 * Z — the quirk that moves +08:00 data 8 h later (Q3). Fractional seconds are dropped; glibc's %Y
 * does not pad years below 1000.
 */
export function strftimeZ(dt: PyDateTime): string {
  const [y, m, d, h, mi, s] = fields(dt);
  return `${y}-${p2(m)}-${p2(d)}T${p2(h)}:${p2(mi)}:${p2(s)}Z`;
}
