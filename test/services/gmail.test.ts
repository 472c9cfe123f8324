import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Environment } from '../../src/main/core/services/environment';
import { gmailService } from '../../src/main/core/services/gmail/gmail.service';
import { dumpsPy, fixtureRecords, type PyObject, type PyValue } from '../../src/main/core/py/pyjson';
import { ServiceInstance } from '../../src/main/core/services/service-instance';
import { CLAW_ROOT } from '../helpers/goldens';

const NOW = new Date('2026-03-05T09:00:00Z');
const mail = (id: string, date: string, extra: PyObject = {}): PyObject => ({
  message_id: id,
  from: `${id}@example.com`,
  to: 'user@company.com',
  subject: `Subject ${id}`,
  body: `Body of ${id}`,
  date,
  labels: ['INBOX'],
  is_read: false,
  ...extra,
});
/** UTC mail: the newest (msg_002) lands at now − 1 day, the others keep their distance to it. */
const UTC: PyValue[] = [
  mail('msg_001', '2026-02-27T09:15:00Z', { labels: ['INBOX', 'IMPORTANT'] }),
  mail('msg_002', '2026-02-27T16:45:00Z', { is_read: true }),
  mail('msg_003', '2026-02-20T16:45:00Z'), // newest − 7 days: before the default window
  mail('msg_004', '2026-02-21T16:45:00Z'), // newest − 6 days: exactly on the cutoff, kept (≥)
];
/** +08:00 mail, printed 8 h late with a Z: the window then reaches newest − 6 days − 8 h. */
const CST: PyValue[] = [
  mail('m1', '2026-02-27T09:00:00+08:00'),
  mail('m2', '2026-02-27T10:30:00+08:00'),
  mail('m3', '2026-02-21T04:30:00+08:00'), // newest − 6 d 6 h: outside 7 days in truth, shown anyway
  mail('m4', '2026-02-20T14:30:00+08:00'), // newest − 6 d 20 h: hidden
];
const make = (records: PyValue[] = UTC, now: () => Date = () => NOW) => new ServiceInstance(gmailService, records, now);
const post = <S>(s: ServiceInstance<S>, p: string, body?: PyValue) => s.request('POST', p, body);
const json = <S>(s: ServiceInstance<S>, p: string, body?: PyValue) => post(s, p, body).json as PyObject;
const calls = <S>(s: ServiceInstance<S>) => s.audit().calls as PyObject[];
const listed = (r: PyObject) => (r.messages as PyObject[]).map((m) => `${String(m.message_id)} ${String(m.date)}`);

describe('gmail date shift (Q3)', () => {
  it('moves the newest UTC mail to one day before now and keeps the spacing', () => {
    const s = make();
    expect(listed(json(s, '/gmail/messages', { days_back: 30 }))).toEqual([
      'msg_001 2026-03-04T01:30:00Z',
      'msg_002 2026-03-04T09:00:00Z',
      'msg_003 2026-02-25T09:00:00Z',
      'msg_004 2026-02-26T09:00:00Z',
    ]);
  });

  it('prints +08:00 dates in their own wall time with a literal Z, which the filter reads as UTC', () => {
    const s = make(CST);
    expect(listed(json(s, '/gmail/messages'))).toEqual([
      'm1 2026-03-04T15:30:00Z',
      'm2 2026-03-04T17:00:00Z',
      'm3 2026-02-26T11:00:00Z',
    ]);
    expect(json(s, '/gmail/messages/get', { message_id: 'm4' }).date).toBe('2026-02-25T21:00:00Z');
  });

  it('drops fractional seconds and depends on the injected clock', () => {
    const s = make(
      [mail('a', '2026-01-01T00:00:00.999+00:00'), mail('b', '2025-12-31T00:00:00.5Z')],
      () => new Date('2026-06-10T12:34:56.789Z'),
    );
    expect(json(s, '/gmail/messages/get', { message_id: 'a' }).date).toBe('2026-06-09T12:34:56Z');
    expect(json(s, '/gmail/messages/get', { message_id: 'b' }).date).toBe('2026-06-08T12:34:56Z');
  });

  it('reset re-reads the fixture and re-shifts with the current now', () => {
    let now = NOW;
    const s = make(UTC, () => now);
    json(s, '/gmail/send', { to: 'a', subject: 'b', body: 'c' });
    now = new Date('2026-04-01T00:00:00Z');
    expect(post(s, '/gmail/reset').json).toEqual({ status: 'reset' });
    expect(s.audit()).toEqual({ calls: [], sent_messages: [], drafts: [] });
    expect(json(s, '/gmail/messages/get', { message_id: 'msg_002' }).date).toBe('2026-03-31T00:00:00Z');
  });

  it('an offset-less fixture date makes the service fail to start, as upstream does', () => {
    expect(() => make([mail('x', '2026-02-27T09:15:00')])).toThrow(/offset-naive/);
    expect(make([]).audit()).toEqual({ calls: [], sent_messages: [], drafts: [] });
  });
});

describe('gmail routes', () => {
  it('lists summaries in fixture order with the default window, also for the body-less probe', () => {
    const s = make();
    const r = post(s, '/gmail/messages', undefined);
    expect(r.status).toBe(200);
    expect(dumpsPy((r.json as PyObject).messages)).toMatch(
      new RegExp(
        String.raw`^\[\{"message_id": "msg_001", "from": "msg_001@example.com", "subject": "Subject msg_001", ` +
          String.raw`"date": "2026-03-04T01:30:00Z", "is_read": false, "labels": \["INBOX", "IMPORTANT"\]\}`,
      ),
    );
    expect(listed(r.json as PyObject).map((x) => x.split(' ')[0])).toEqual(['msg_001', 'msg_002', 'msg_004']);
    expect(calls(s)[0]).toMatchObject({
      endpoint: '/gmail/messages',
      request_body: { days_back: 7, max_results: 20 },
      timestamp: '2026-03-05T09:00:00+00:00',
    });
  });

  it('truncates with Python slice semantics and counts the returned items', () => {
    const s = make();
    expect(json(s, '/gmail/messages', { max_results: '2' })).toMatchObject({ total: 2 });
    expect(json(s, '/gmail/messages', { max_results: 0 })).toEqual({ messages: [], total: 0 });
    expect(listed(json(s, '/gmail/messages', { max_results: -1 })).map((x) => x.split(' ')[0])).toEqual([
      'msg_001',
      'msg_002',
    ]);
    expect(json(s, '/gmail/messages', { days_back: 0 })).toEqual({ messages: [], total: 0 });
    expect(calls(s)[0]!.request_body).toEqual({ days_back: 7, max_results: 2 });
  });

  it('a days_back reaching before year 1 is an uncaught overflow: plain-text 500, not logged', () => {
    const s = make();
    expect(post(s, '/gmail/messages', { days_back: 800_000 })).toEqual({ status: 500, text: 'Internal Server Error' });
    expect(post(s, '/gmail/messages', { days_back: 1_000_000_000 }).status).toBe(500);
    expect(calls(s)).toEqual([]);
  });

  it('a fixture record without a projected field fails the list (KeyError) but not get', () => {
    const broken = { ...mail('z', '2026-02-27T09:15:00Z') };
    delete broken.labels;
    const s = make([broken]);
    expect(post(s, '/gmail/messages', {}).status).toBe(500);
    expect(json(s, '/gmail/messages/get', { message_id: 'z' }).message_id).toBe('z');
  });

  it('get returns a deep copy of the full record, and does not mark it read', () => {
    const s = make();
    const m = json(s, '/gmail/messages/get', { message_id: 'msg_001' });
    expect(Object.keys(m)).toEqual(['message_id', 'from', 'to', 'subject', 'body', 'date', 'labels', 'is_read']);
    (m.labels as string[]).push('mutated');
    expect(json(s, '/gmail/messages/get', { message_id: 'msg_001' })).toMatchObject({
      labels: ['INBOX', 'IMPORTANT'],
      is_read: false,
    });
    expect(post(s, '/gmail/messages/get', { message_id: 'msg_404' })).toEqual({
      status: 200,
      json: { error: 'Message msg_404 not found' },
    });
    expect(calls(s).map((c) => c.request_body)).toEqual([
      { message_id: 'msg_001' },
      { message_id: 'msg_001' },
      { message_id: 'msg_404' },
    ]);
  });

  it('send and draft save record shared objects under sent_messages and drafts', () => {
    const s = make();
    const sent = json(s, '/gmail/send', { to: 'boss@company.com', subject: 'Re: Q1', body: '好的', cc: 'dropped' });
    expect(dumpsPy(sent)).toBe(
      '{"status": "sent", "message": {"to": "boss@company.com", "subject": "Re: Q1", "body": "好的", "timestamp": ' +
        '"2026-03-05T09:00:00+00:00"}}',
    );
    const draft = json(s, '/gmail/drafts/save', { to: 'a@b.c', subject: 's', body: 'b' });
    expect(draft).toEqual({
      status: 'draft_saved',
      draft: {
        to: 'a@b.c',
        subject: 's',
        body: 'b',
        reply_to_message_id: null,
        timestamp: '2026-03-05T09:00:00+00:00',
      },
    });
    json(s, '/gmail/drafts/save', { to: 'a@b.c', subject: 's', body: 'b', reply_to_message_id: 'msg_001' });
    const audit = s.audit();
    expect(Object.keys(audit)).toEqual(['calls', 'sent_messages', 'drafts']);
    expect((audit.sent_messages as PyObject[])[0]).toBe(sent.message);
    expect((audit.drafts as PyObject[]).map((d) => d.reply_to_message_id)).toEqual([null, 'msg_001']);
    expect(calls(s).map((c) => c.request_body)).toEqual([
      { to: 'boss@company.com', subject: 'Re: Q1', body: '好的' },
      { to: 'a@b.c', subject: 's', body: 'b', reply_to_message_id: null },
      { to: 'a@b.c', subject: 's', body: 'b', reply_to_message_id: 'msg_001' },
    ]);
  });

  it('rejects invalid bodies with 422 and logs nothing', () => {
    const s = make();
    expect(post(s, '/gmail/send', { to: 'x', body: 'y' })).toEqual({
      status: 422,
      json: {
        detail: [{ type: 'missing', loc: ['body', 'subject'], msg: 'Field required', input: { to: 'x', body: 'y' } }],
      },
    });
    expect(post(s, '/gmail/messages/get', { message_id: ['msg_001'] }).json).toEqual({
      detail: [
        { type: 'string_type', loc: ['body', 'message_id'], msg: 'Input should be a valid string', input: ['msg_001'] },
      ],
    });
    expect(post(s, '/gmail/messages', { max_results: 'ten' }).status).toBe(422);
    expect(post(s, '/gmail/drafts/save', { to: 'x', subject: 'y', body: 'z', reply_to_message_id: 5 }).status).toBe(
      422,
    );
    expect(post(s, '/gmail/messages/get', undefined).status).toBe(422);
    expect(s.request('GET', '/gmail/messages', undefined)).toEqual({
      status: 405,
      json: { detail: 'Method Not Allowed' },
    });
    expect(post(s, '/gmail/contacts/search', { query: 'x' })).toEqual({ status: 404, json: { detail: 'Not Found' } });
    expect(calls(s)).toEqual([]);
  });

  it('the parity probe is the first audit call of a task environment', () => {
    const env = new Environment({
      services: [{ id: 'gmail', records: CST }],
      tools: [{ name: 'gmail_list_messages', url: 'http://localhost:9100/gmail/messages' }],
      now: () => NOW,
    });
    expect(env.call('gmail_list_messages', {}).text).toContain('"total": 3}');
    expect((env.audits().gmail!.calls as PyObject[]).map((c) => c.endpoint)).toEqual([
      '/gmail/messages',
      '/gmail/messages',
    ]);
  });

  // Record schemas against the corpus: test/services/registry.test.ts.
  it.skipIf(!fs.existsSync(CLAW_ROOT))('every corpus gmail fixture loads', () => {
    const tasks = path.join(CLAW_ROOT, 'tasks');
    const files = fs
      .readdirSync(tasks)
      .map((t) => path.join(tasks, t, 'fixtures/gmail/inbox.json'))
      .filter(fs.existsSync);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const records = fixtureRecords({ content: fs.readFileSync(f, 'utf8') }) as PyValue[];
      expect(() => make(records), f).not.toThrow();
    }
  });

  it('the record schema refuses a mail without is_read', () => {
    const partial = mail('x', '2026-02-27T09:15:00Z');
    delete partial.is_read;
    expect(gmailService.recordSchema.safeParse(partial).success).toBe(false);
  });
});
