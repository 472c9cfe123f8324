import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { calendarService } from '../../src/main/core/services/calendar/calendar.service';
import { Environment } from '../../src/main/core/services/environment';
import { dumpsPy, fixtureRecords, type PyObject, type PyValue } from '../../src/main/core/py/pyjson';
import { ServiceInstance } from '../../src/main/core/services/service-instance';
import { CLAW_ROOT } from '../helpers/goldens';

const NOW = new Date('2026-03-05T09:00:00Z');
const ev = (id: string, start: string, end: string, attendees: string[], extra: PyObject = {}): PyObject => ({
  event_id: id,
  title: `Title ${id}`,
  start_time: start,
  end_time: end,
  attendees,
  location: 'Room A',
  ...extra,
});
/** Earliest 2026-03-02T09:00Z: with now on 03-05 everything moves 4 days (to tomorrow, same time). */
const UTC: PyValue[] = [
  ev('evt_001', '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z', ['张经理', '李明'], { recurring: true }),
  ev('evt_002', '2026-03-02T13:00:00Z', '2026-03-02T14:00:00Z', ['Mike Li', 'External Client']),
  ev('evt_003', '2026-03-02T12:00:00Z', '2026-03-02T13:00:00Z', []),
  ev('evt_004', '2026-03-04T10:00:00Z', '2026-03-04T11:00:00Z', ['mike.li@corp.com'], {
    organizer: 'x',
    status: 'confirmed',
  }),
  ev('evt_005', '2026-03-03T08:00:00Z', '', ['Mike Li']),
];
const make = (records: PyValue[] = UTC, now: () => Date = () => NOW) =>
  new ServiceInstance(calendarService, records, now);
const post = <S>(s: ServiceInstance<S>, p: string, body?: PyValue) => s.request('POST', p, body);
const json = <S>(s: ServiceInstance<S>, p: string, body?: PyValue) => post(s, p, body).json as PyObject;
const calls = <S>(s: ServiceInstance<S>) => s.audit().calls as PyObject[];
const ids = (r: PyObject) => (r.events as PyObject[]).map((e) => e.event_id);
const times = <S>(s: ServiceInstance<S>, id: string) => {
  const e = json(s, '/calendar/events/get', { event_id: id });
  return `${String(e.start_time)} ${String(e.end_time)}`;
};

describe('calendar date shift (Q3)', () => {
  it('moves the earliest UTC event to tomorrow at its own time, the rest by the same delta', () => {
    const s = make();
    expect(times(s, 'evt_001')).toBe('2026-03-06T09:00:00Z 2026-03-06T09:30:00Z');
    expect(times(s, 'evt_004')).toBe('2026-03-08T10:00:00Z 2026-03-08T11:00:00Z');
    // An empty end_time is left alone.
    expect(times(s, 'evt_005')).toBe('2026-03-07T08:00:00Z ');
  });

  it('+08:00 events print their own wall time with a literal Z: 09:00+08:00 becomes 17:00Z', () => {
    const cst = [
      ev('a', '2026-03-28T08:00:00+08:00', '2026-03-28T09:00:00+08:00', []),
      ev('b', '2026-03-27T09:00:00+08:00', '2026-03-27T10:30:00+08:00', []),
    ];
    const s = make(cst, () => new Date('2026-11-29T15:20:00.123Z'));
    expect(times(s, 'b')).toBe('2026-11-30T17:00:00Z 2026-11-30T18:30:00Z');
    expect(times(s, 'a')).toBe('2026-12-01T16:00:00Z 2026-12-01T17:00:00Z');
    // …and the list reads them as UTC: b is listed on 11-30, at 17:00Z.
    expect(ids(json(s, '/calendar/events', { date: '2026-11-30' }))).toEqual(['b']);
  });

  it('of equal earliest instants the first in fixture order sets the hour', () => {
    const a = ev('a', '2026-03-27T09:00:00+08:00', '', []);
    const b = ev('b', '2026-03-27T01:00:00Z', '', []);
    expect(times(make([a, b]), 'b')).toBe('2026-03-06T09:00:00Z ');
    expect(times(make([b, a]), 'b')).toBe('2026-03-06T01:00:00Z ');
    expect(times(make([a, b]), 'a')).toBe('2026-03-06T17:00:00Z ');
    expect(times(make([b, a]), 'a')).toBe('2026-03-06T09:00:00Z ');
  });

  it('reset restores deleted events, drops created ones, re-shifts with the current now and clears the audit', () => {
    let now = NOW;
    const s = make(UTC, () => now);
    json(s, '/calendar/events/delete', { event_id: 'evt_001' });
    json(s, '/calendar/events/create', { title: 't', start_time: 'x', end_time: 'y' });
    now = new Date('2026-03-10T00:00:00Z');
    expect(post(s, '/calendar/reset').json).toEqual({ status: 'reset' });
    expect(s.audit()).toEqual({ calls: [], deleted: [], created_events: [] });
    expect(times(s, 'evt_001')).toBe('2026-03-11T09:00:00Z 2026-03-11T09:30:00Z');
    expect(json(s, '/calendar/events', { date: '2026-03-11', days: 7 }).total).toBe(5);
  });
});

describe('calendar routes', () => {
  it('lists [date 00:00Z, date + days) sorted by the start_time text, as deep copies', () => {
    const s = make();
    const r = json(s, '/calendar/events', { date: '2026-03-06' });
    expect(ids(r)).toEqual(['evt_001', 'evt_003', 'evt_002']);
    expect(r.total).toBe(3);
    expect(ids(json(s, '/calendar/events', { date: '2026-03-06', days: '3' }))).toEqual([
      'evt_001',
      'evt_003',
      'evt_002',
      'evt_005',
      'evt_004',
    ]);
    expect(json(s, '/calendar/events', { date: '2026-03-06', days: 0 })).toEqual({ events: [], total: 0 });
    expect(json(s, '/calendar/events', { date: '2026-03-07', days: -1 })).toEqual({ events: [], total: 0 });
    ((r.events as PyObject[])[0]!.attendees as string[]).push('x');
    expect(json(s, '/calendar/events/get', { event_id: 'evt_001' }).attendees).toEqual(['张经理', '李明']);
    expect(calls(s)[1]!.request_body).toEqual({ date: '2026-03-06', days: 3 });
  });

  it('parses the date like strptime %Y-%m-%d: one-digit parts pass, the rest is a logged 200 error', () => {
    const s = make();
    expect(ids(json(s, '/calendar/events', { date: '2026-3-6' }))).toEqual(['evt_001', 'evt_003', 'evt_002']);
    for (const date of ['2026/03/06', '2026-02-30', '2026-03-06T00:00:00Z', '']) {
      expect(post(s, '/calendar/events', { date })).toEqual({
        status: 200,
        json: { error: `Invalid date format: ${date}` },
      });
    }
    expect(json(s, '/calendar/user_events', { user: 'Mike Li', date: 'tomorrow' })).toEqual({
      error: 'Invalid date format: tomorrow',
    });
    expect(calls(s)).toHaveLength(6);
    // Past year 9999 the end of the window overflows outside upstream's try: a 500.
    expect(post(s, '/calendar/events', { date: '9999-12-31' }).status).toBe(500);
    expect(post(s, '/calendar/events', { date: '2026-03-06', days: 4_000_000 }).status).toBe(500);
    expect(calls(s)).toHaveLength(6);
  });

  it('the body-less probe lists 2026-03-02; {} lacks the required date', () => {
    const s = make();
    expect(post(s, '/calendar/events', undefined)).toEqual({ status: 200, json: { events: [], total: 0 } });
    expect(calls(s)[0]!.request_body).toEqual({ date: '2026-03-02', days: 1 });
    expect(post(s, '/calendar/events', {})).toEqual({
      status: 422,
      json: { detail: [{ type: 'missing', loc: ['body', 'date'], msg: 'Field required', input: {} }] },
    });
    const env = new Environment({ services: [{ id: 'calendar', records: UTC }], tools: [], now: () => NOW });
    expect((env.audits().calendar!.calls as PyObject[]).map((c) => c.endpoint)).toEqual(['/calendar/events']);
  });

  it('user_events: events of that UTC day where the user is a case-sensitive substring of an attendee', () => {
    const s = make();
    const r = json(s, '/calendar/user_events', { user: 'Li', date: '2026-03-06' });
    expect(Object.keys(r)).toEqual(['events', 'total', 'user']);
    expect(r).toMatchObject({ total: 1, user: 'Li' });
    expect(ids(r)).toEqual(['evt_002']);
    expect(ids(json(s, '/calendar/user_events', { user: 'mike', date: '2026-03-08' }))).toEqual(['evt_004']);
    expect(ids(json(s, '/calendar/user_events', { user: 'mike', date: '2026-03-06' }))).toEqual([]);
    expect(ids(json(s, '/calendar/user_events', { user: '', date: '2026-03-06' }))).toEqual(['evt_001', 'evt_002']);
    expect(post(s, '/calendar/user_events', { user: '李明' }).status).toBe(422);
  });

  it('create stores the event verbatim with defaults and an id from the list length', () => {
    const s = make();
    const r = json(s, '/calendar/events/create', {
      title: 'Sync',
      start_time: '2026-03-06T23:30:00+08:00',
      end_time: 'whenever',
      extra: 1,
    });
    expect(dumpsPy(r)).toBe(
      '{"status": "created", "event": {"event_id": "evt_006", "title": "Sync", "start_time": ' +
        '"2026-03-06T23:30:00+08:00", "end_time": "whenever", "attendees": [], "location": "", "recurring": false}}',
    );
    expect(calls(s)[0]!.request_body).toEqual({
      title: 'Sync',
      start_time: '2026-03-06T23:30:00+08:00',
      end_time: 'whenever',
      attendees: [],
      location: '',
    });
    const created = (s.audit().created_events as PyObject[])[0]!;
    expect(created).toEqual(r.event);
    expect(created).not.toBe(r.event);
    // Compared as its true instant (15:30Z), sorted by its text.
    expect(ids(json(s, '/calendar/events', { date: '2026-03-06' }))).toEqual([
      'evt_001',
      'evt_003',
      'evt_002',
      'evt_006',
    ]);
    json(s, '/calendar/events/delete', { event_id: 'evt_001' });
    expect(
      (
        json(s, '/calendar/events/create', { title: 'Dup', start_time: '2026-03-09T10:00:00Z', end_time: 'x' })
          .event as PyObject
      ).event_id,
    ).toBe('evt_006');
    expect(json(s, '/calendar/events/get', { event_id: 'evt_006' }).title).toBe('Sync');
  });

  it('an offset-less or unparsable created start_time makes every later list a 500 until removed (Q16)', () => {
    const s = make();
    json(s, '/calendar/events/create', {
      title: 'Naive',
      start_time: '2026-03-06T10:00:00',
      end_time: '2026-03-06T11:00:00',
    });
    expect(post(s, '/calendar/events', { date: '2026-03-06' })).toEqual({ status: 500, text: 'Internal Server Error' });
    expect(post(s, '/calendar/user_events', { user: 'nobody', date: '2030-01-01' }).status).toBe(500);
    // The date check runs first: a bad date is still a logged error, not a 500.
    expect(post(s, '/calendar/events', { date: 'bad' }).status).toBe(200);
    expect(json(s, '/calendar/events/get', { event_id: 'evt_006' }).title).toBe('Naive');
    expect(calls(s).map((c) => c.endpoint)).toEqual([
      '/calendar/events/create',
      '/calendar/events',
      '/calendar/events/get',
    ]);
    json(s, '/calendar/events/delete', { event_id: 'evt_006' });
    expect(post(s, '/calendar/events', { date: '2026-03-06' }).status).toBe(200);
    json(s, '/calendar/events/create', { title: 'Bad', start_time: 'tomorrow 10am', end_time: '' });
    expect(post(s, '/calendar/events', { date: '2026-03-06' }).status).toBe(500);
    post(s, '/calendar/reset');
    expect(post(s, '/calendar/events', { date: '2026-03-06' }).status).toBe(200);
  });

  it('delete removes the stored object itself and records it in deleted', () => {
    const s = make();
    const r = json(s, '/calendar/events/delete', { event_id: 'evt_004' });
    expect(r.status).toBe('deleted');
    expect(Object.keys(r.event as PyObject)).toEqual([
      'event_id',
      'title',
      'start_time',
      'end_time',
      'attendees',
      'location',
      'organizer',
      'status',
    ]);
    expect((s.audit().deleted as PyObject[])[0]).toBe(r.event);
    expect(json(s, '/calendar/events/get', { event_id: 'evt_004' })).toEqual({ error: 'Event evt_004 not found' });
    expect(post(s, '/calendar/events/delete', { event_id: 'evt_004' })).toEqual({
      status: 200,
      json: { error: 'Event evt_004 not found' },
    });
    expect(Object.keys(s.audit())).toEqual(['calls', 'deleted', 'created_events']);
    expect(calls(s)).toHaveLength(3);
  });

  it('rejects invalid bodies with 422 and logs nothing', () => {
    const s = make();
    expect(post(s, '/calendar/events/get', { event_id: { value: 'evt_001' } }).json).toEqual({
      detail: [
        {
          type: 'string_type',
          loc: ['body', 'event_id'],
          msg: 'Input should be a valid string',
          input: { value: 'evt_001' },
        },
      ],
    });
    expect(
      post(s, '/calendar/events/create', { title: 't', start_time: 's', end_time: 'e', location: ['Zoom'] }).status,
    ).toBe(422);
    expect(
      post(s, '/calendar/events/create', { title: 't', start_time: 's', end_time: 'e', attendees: [1] }).status,
    ).toBe(422);
    expect(post(s, '/calendar/events', { date: '2026-03-06', days: 1.5 }).status).toBe(422);
    expect(post(s, '/calendar/events/delete', {}).status).toBe(422);
    expect(calls(s)).toEqual([]);
  });

  // Record schemas against the corpus: test/services/registry.test.ts.
  it.skipIf(!fs.existsSync(CLAW_ROOT))('every corpus calendar fixture loads', () => {
    const tasks = path.join(CLAW_ROOT, 'tasks');
    const files = fs
      .readdirSync(tasks)
      .map((t) => path.join(tasks, t, 'fixtures/calendar/events.json'))
      .filter(fs.existsSync);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const records = fixtureRecords({ content: fs.readFileSync(f, 'utf8') }) as PyValue[];
      expect(() => make(records), f).not.toThrow();
    }
  });

  it('the record schema refuses an event without its always-present fields', () => {
    expect(
      calendarService.recordSchema.safeParse({
        event_id: 'e',
        title: 't',
        start_time: 's',
        end_time: 'e',
        attendees: [],
      }).success,
    ).toBe(false);
  });
});
