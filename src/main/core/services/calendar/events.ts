import { deepCopy } from '../lib';
import { isObject, numeric, pyEquals, type PyObject, type PyValue } from '../../py/pyjson';
import { parseStamp } from '../../py/pytime/isoformat';
import {
  DAY,
  daysFromCivil,
  field,
  fields,
  fromDate,
  instant,
  plus,
  PyDateError,
  strftimeZ,
  timedeltaDays,
  US,
} from '../../py/pytime/pydatetime';
import { strptimeDate } from '../../py/pytime/strptime';

/** Python truthiness of a JSON value. */
function truthy(v: PyValue | undefined): boolean {
  if (v === undefined || v === null || v === false || v === '') return false;
  const n = numeric(v);
  if (n !== undefined) return n !== 0;
  if (Array.isArray(v)) return v.length > 0;
  return isObject(v) ? Object.keys(v).length > 0 : true;
}

/**
 * At load and reset (reference/claw-eval.md §6.5, Q3): the earliest start moves to tomorrow's UTC
 * date at its own written hour:minute read as UTC, every start/end by the same delta, each printed
 * in its own offset with a literal Z (09:00+08:00 → 17:00Z). Empty or absent end times are skipped.
 */
export function shiftEventTimes(events: PyObject[], now: Date): void {
  if (!events.length) return;
  const starts = events.map((e) => parseStamp(field(e, 'start_time')));
  // Python's min keeps the first of equal instants; its written hour is what counts.
  const earliest = starts.reduce((a, b) => (instant(b) < instant(a) ? b : a));
  const [y, m, d] = fields(plus(fromDate(now), DAY));
  const [, , , hour, minute] = fields(earliest);
  const target = BigInt(daysFromCivil(y, m, d)) * DAY + BigInt(hour * 3600 + minute * 60) * US;
  const delta = target - instant(earliest);
  for (const e of events) {
    for (const key of ['start_time', 'end_time']) {
      if (truthy(e[key])) e[key] = strftimeZ(plus(parseStamp(e[key]!), delta));
    }
  }
}

/** Python's `x in container`; containers that are not iterable raise TypeError (→ 500). */
function contains(container: PyValue, x: string): boolean {
  if (typeof container === 'string') return container.includes(x);
  if (Array.isArray(container)) return container.some((a) => pyEquals(a, x));
  if (isObject(container)) return x in container;
  throw new PyDateError('TypeError: argument of type is not iterable');
}

function items(container: PyValue): PyValue[] {
  if (typeof container === 'string') return Array.from(container);
  if (Array.isArray(container)) return container;
  if (isObject(container)) return Object.keys(container);
  throw new PyDateError('TypeError: object is not iterable');
}

/** `user in attendees or any(user in a for a in attendees)`: case-sensitive substring of some attendee. */
const attends = (user: string, attendees: PyValue) =>
  contains(attendees, user) || items(attendees).some((a) => contains(a, user));

/** Python compares str by code point; JS `<` compares UTF-16 units (differs above U+FFFF). */
function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/**
 * Events starting in [date 00:00Z, date + days), sorted by the start_time text, as deep copies;
 * with `user`, only events that user attends. Every stored start_time is parsed, so one created
 * without an offset (naive) or unparsable raises here: a 500 on every call until reset (Q16).
 */
export function eventsOn(events: PyObject[], date: string, days: number, user?: string): PyObject {
  const day = strptimeDate(date);
  if (day === undefined) return { error: `Invalid date format: ${date}` };
  const from = BigInt(day) * DAY;
  // Outside the try upstream: overflowing past year 9999 is a 500, not an "Invalid date format".
  const to = plus({ wall: from, offset: 0n }, timedeltaDays(days)).wall;
  const found: PyObject[] = [];
  for (const e of events) {
    const start = instant(parseStamp(field(e, 'start_time')));
    if (from <= start && start < to && (user === undefined || attends(user, 'attendees' in e ? e.attendees! : [])))
      found.push(deepCopy(e));
  }
  found.sort((a, b) => byCodePoint(a.start_time as string, b.start_time as string));
  return { events: found, total: found.length };
}
