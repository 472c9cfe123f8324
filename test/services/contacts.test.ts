import { describe, expect, it } from 'vitest';
import { contactsService } from '../../src/main/core/services/contacts/contacts.service';
import { Environment } from '../../src/main/core/services/environment';
import { dumpsPy, type PyObject, type PyValue } from '../../src/main/core/py/pyjson';
import { ServiceInstance } from '../../src/main/core/services/service-instance';

const NOW = new Date('2026-03-05T09:00:00.250Z');
const FIXTURE: PyValue[] = [
  {
    contact_id: 'c_001',
    name: 'David Zhang',
    department: 'Engineering',
    title: 'Director',
    email: 'd@x.com',
    phone: '1',
  },
  {
    contact_id: 'c_002',
    name: 'Lily Zhang',
    department: 'Human Resources',
    title: 'HR Manager',
    email: 'l@x.com',
    phone: '2',
    location: 'SH',
  },
  { contact_id: 'c_003', name: '王芳', department: '工程部', title: '高级工程师', email: 'w@x.com', phone: '3' },
];
const make = () => new ServiceInstance(contactsService, FIXTURE, () => NOW);
const post = <S>(s: ServiceInstance<S>, path: string, body?: PyValue) => s.request('POST', path, body);
const json = <S>(s: ServiceInstance<S>, path: string, body?: PyValue) => post(s, path, body).json as PyObject;
const ids = (r: PyObject) => (r.contacts as PyObject[]).map((c) => c.contact_id);
const calls = <S>(s: ServiceInstance<S>) => s.audit().calls as PyObject[];

describe('contacts service', () => {
  it('searches a case-sensitive substring of the name only', () => {
    const s = make();
    expect(ids(json(s, '/contacts/search', { query: 'Zhang' }))).toEqual(['c_001', 'c_002']);
    expect(ids(json(s, '/contacts/search', { query: 'zhang' }))).toEqual([]);
    expect(ids(json(s, '/contacts/search', { query: 'Director' }))).toEqual([]);
    expect(ids(json(s, '/contacts/search', { query: '王' }))).toEqual(['c_003']);
    expect(json(s, '/contacts/search', { query: '' }).total).toBe(3);
  });

  it('filters on a department substring unless it is null ("" matches all)', () => {
    const s = make();
    expect(ids(json(s, '/contacts/search', { query: 'Zhang', department: 'Human' }))).toEqual(['c_002']);
    expect(ids(json(s, '/contacts/search', { query: 'Zhang', department: '' }))).toEqual(['c_001', 'c_002']);
    expect(ids(json(s, '/contacts/search', { query: 'Zhang', department: 'engineering' }))).toEqual([]);
    expect(calls(s).map((c) => c.request_body)).toEqual([
      { query: 'Zhang', department: 'Human' },
      { query: 'Zhang', department: '' },
      { query: 'Zhang', department: 'engineering' },
    ]);
  });

  it('returns full deep copies with fixture key order', () => {
    const s = make();
    const r = json(s, '/contacts/search', { query: 'Lily' });
    expect(dumpsPy(r)).toBe(
      '{"contacts": [{"contact_id": "c_002", "name": "Lily Zhang", "department": "Human Resources", "title": "HR ' +
        'Manager", "email": "l@x.com", "phone": "2", "location": "SH"}], "total": 1}',
    );
    (r.contacts as PyObject[])[0]!.name = 'X';
    expect(json(s, '/contacts/get', { contact_id: 'c_002' }).name).toBe('Lily Zhang');
  });

  it('requires query, so the body-less health probe is a 422 and leaves no audit entry', () => {
    const env = new Environment({ services: [{ id: 'contacts', records: FIXTURE }], tools: [], now: () => NOW });
    expect(env.audits().contacts).toEqual({ calls: [], sent_messages: [] });
    const s = make();
    expect(post(s, '/contacts/search', undefined).status).toBe(422);
    const r = post(s, '/contacts/search', {});
    expect(r).toEqual({
      status: 422,
      json: { detail: [{ type: 'missing', loc: ['body', 'query'], msg: 'Field required', input: {} }] },
    });
    expect(post(s, '/contacts/search', { query: { value: 'Chen' } }).status).toBe(422);
    expect(post(s, '/contacts/search', { query: 'a', department: ['Sales'] }).status).toBe(422);
    expect(calls(s)).toEqual([]);
  });

  it('gets by id, or answers a logged not-found with HTTP 200', () => {
    const s = make();
    expect(json(s, '/contacts/get', { contact_id: 'c_003' }).name).toBe('王芳');
    expect(post(s, '/contacts/get', { contact_id: 'c_999' })).toEqual({
      status: 200,
      json: { error: 'Contact c_999 not found' },
    });
    expect(calls(s)).toHaveLength(2);
  });

  it('sends messages to any id and records them in sent_messages', () => {
    const s = make();
    const r = json(s, '/contacts/send_message', { contact_id: 'nobody', message: 'hi', extra: 1 });
    expect(dumpsPy(r)).toBe(
      '{"status": "sent", "record": {"contact_id": "nobody", "message": "hi", "timestamp": ' +
        '"2026-03-05T09:00:00.250000+00:00"}}',
    );
    expect(s.audit().sent_messages).toEqual([r.record]);
    expect(calls(s)[0]!.request_body).toEqual({ contact_id: 'nobody', message: 'hi' });
    expect(post(s, '/contacts/send_message', { contact_id: 'c_001' }).status).toBe(422);
    expect(Object.keys(s.audit())).toEqual(['calls', 'sent_messages']);
  });

  it('reset clears the audit', () => {
    const s = make();
    json(s, '/contacts/send_message', { contact_id: 'c_001', message: 'm' });
    post(s, '/contacts/reset');
    expect(s.audit()).toEqual({ calls: [], sent_messages: [] });
  });

  it('a fixture name that is not a string fails like upstream (500, not logged)', () => {
    const s = new ServiceInstance(contactsService, [{ contact_id: 'c', name: 5, department: 'd' }], () => NOW);
    expect(post(s, '/contacts/search', { query: 'a' })).toEqual({ status: 500, text: 'Internal Server Error' });
    expect(calls(s)).toEqual([]);
  });

  // Record schemas against the corpus: test/services/registry.test.ts.
  it('the record schema refuses a contact without its always-present fields', () => {
    expect(
      contactsService.recordSchema.safeParse({ contact_id: 'a', name: 'b', department: 'c', title: 'd', email: 'e' })
        .success,
    ).toBe(false);
  });
});
