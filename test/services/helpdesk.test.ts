import { describe, expect, it } from 'vitest';
import { helpdeskService } from '../../src/main/core/services/helpdesk/helpdesk.service';
import { Environment } from '../../src/main/core/services/environment';
import { dumpsPy, type PyObject, type PyValue } from '../../src/main/core/py/pyjson';
import { ServiceInstance } from '../../src/main/core/services/service-instance';

const NOW = new Date('2026-03-05T09:00:00Z');
const ticket = (id: string, status: string, extra: PyObject = {}): PyObject => ({
  ticket_id: id,
  title: `T ${id}`,
  description: 'd',
  reporter: 'r',
  department: 'IT',
  priority: '',
  status,
  created_at: '2026-02-28T08:00:00Z',
  ...extra,
});
const FIXTURE: PyValue[] = [
  ticket('TK-1', 'open', { tags: [] }),
  ticket('TK-2', 'closed'),
  ticket('TK-3', 'open', { assigned_to: 'x' }),
];
const make = () => new ServiceInstance(helpdeskService, FIXTURE, () => NOW);
const post = <S>(s: ServiceInstance<S>, p: string, body?: PyValue) => s.request('POST', p, body);
const ids = (r: { json?: PyValue }) => ((r.json as PyObject).tickets as PyObject[]).map((t) => t.ticket_id);

describe('helpdesk: list', () => {
  it('defaults to status "open", "all" lists everything, other values filter exactly', () => {
    const s = make();
    expect(ids(post(s, '/helpdesk/tickets', {}))).toEqual(['TK-1', 'TK-3']);
    expect(ids(post(s, '/helpdesk/tickets', { status: 'all' }))).toEqual(['TK-1', 'TK-2', 'TK-3']);
    expect(ids(post(s, '/helpdesk/tickets', { status: 'closed' }))).toEqual(['TK-2']);
    expect(ids(post(s, '/helpdesk/tickets', { status: 'Open' }))).toEqual([]);
    // Not "empty means no filter": "" matches only tickets whose status is "".
    expect(post(s, '/helpdesk/tickets', { status: '' }).json).toEqual({ tickets: [], total: 0 });
  });

  it('returns the summary projection in upstream key order and ignores unknown filters', () => {
    const r = post(make(), '/helpdesk/tickets', { status: 'closed', priority: 'high', category: 'x' });
    expect(dumpsPy(r.json)).toBe(
      '{"tickets": [{"ticket_id": "TK-2", "title": "T TK-2", "reporter": "r", "department": "IT", "priority": "", ' +
        '"status": "closed", "created_at": "2026-02-28T08:00:00Z"}], "total": 1}',
    );
  });

  it('null status is a 422 (plain str field), and a record missing a projected field is a 500', () => {
    expect(post(make(), '/helpdesk/tickets', { status: null }).status).toBe(422);
    const broken = new ServiceInstance(helpdeskService, [{ ticket_id: 'X', status: 'open' }], () => NOW);
    expect(broken.request('POST', '/helpdesk/tickets', {})).toEqual({ status: 500, text: 'Internal Server Error' });
    expect(broken.audit().calls).toEqual([]);
  });

  it('the health probe (no body) runs with the defaults and is logged first', () => {
    const env = new Environment({ services: [{ id: 'helpdesk', records: FIXTURE }], tools: [], now: () => NOW });
    const calls = env.audits().helpdesk!.calls as PyObject[];
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      endpoint: '/helpdesk/tickets',
      request_body: { status: 'open' },
      timestamp: '2026-03-05T09:00:00+00:00',
    });
  });
});

describe('helpdesk: get, update, close', () => {
  it('get returns a deep copy of the full record, or a logged 200 not-found', () => {
    const s = make();
    const r = post(s, '/helpdesk/tickets/get', { ticket_id: 'TK-3' });
    expect(r.json).toEqual(FIXTURE[2]);
    (r.json as PyObject).status = 'mutated';
    expect((post(s, '/helpdesk/tickets/get', { ticket_id: 'TK-3' }).json as PyObject).status).toBe('open');
    expect(post(s, '/helpdesk/tickets/get', { ticket_id: 'TK-9' })).toEqual({
      status: 200,
      json: { error: 'Ticket TK-9 not found' },
    });
    expect((s.audit().calls as PyObject[]).map((c) => c.endpoint)).toEqual([
      '/helpdesk/tickets/get',
      '/helpdesk/tickets/get',
      '/helpdesk/tickets/get',
    ]);
  });

  it('update sets only non-null fields (appending new keys), drops assigned_to, logs every call', () => {
    const s = make();
    const r = post(s, '/helpdesk/tickets/update', {
      ticket_id: 'TK-2',
      category: 'net',
      assigned_to: 'bob',
      tags: ['a'],
    });
    expect(Object.keys((r.json as PyObject).ticket as PyObject).slice(-2)).toEqual(['tags', 'category']);
    expect(r.json).toEqual({
      status: 'updated',
      ticket: { ...(FIXTURE[1] as PyObject), category: 'net', tags: ['a'] },
    });
    post(s, '/helpdesk/tickets/update', { ticket_id: 'TK-2', priority: '' });
    const got = post(s, '/helpdesk/tickets/get', { ticket_id: 'TK-2' }).json as PyObject;
    expect(got).toMatchObject({ priority: '', category: 'net', tags: ['a'] });
    expect(got).not.toHaveProperty('assigned_to');
    const a = s.audit();
    expect((a.updated_tickets as PyObject[]).map((t) => t.priority)).toEqual(['', '']);
    expect((a.calls as PyObject[])[0]!.request_body).toEqual({
      ticket_id: 'TK-2',
      priority: null,
      tags: ['a'],
      category: 'net',
    });
  });

  it('update logs deep copies: later changes do not leak into earlier records', () => {
    const s = make();
    post(s, '/helpdesk/tickets/update', { ticket_id: 'TK-1', priority: 'low' });
    post(s, '/helpdesk/tickets/update', { ticket_id: 'TK-1', priority: 'high' });
    const a = s.audit();
    expect((a.updated_tickets as PyObject[]).map((t) => t.priority)).toEqual(['low', 'high']);
    expect((((a.calls as PyObject[])[0]!.response_body as PyObject).ticket as PyObject).priority).toBe('low');
  });

  it('close sets status and resolution and records a copy in `closed`', () => {
    const s = make();
    const r = post(s, '/helpdesk/tickets/close', { ticket_id: 'TK-1', resolution: 'done' });
    expect(r.json).toEqual({
      status: 'closed',
      ticket: { ...(FIXTURE[0] as PyObject), status: 'closed', resolution: 'done' },
    });
    expect(ids(post(s, '/helpdesk/tickets', {}))).toEqual(['TK-3']);
    expect(s.audit().closed).toEqual([(r.json as PyObject).ticket]);
    expect(post(s, '/helpdesk/tickets/close', { ticket_id: 'TK-9', resolution: 'x' }).json).toEqual({
      error: 'Ticket TK-9 not found',
    });
    expect(s.audit().closed).toHaveLength(1);
  });

  it('validation errors are 422 in pydantic v2 shape and are not logged', () => {
    const s = make();
    expect(post(s, '/helpdesk/tickets/close', { ticket_id: 'TK-1' }).json).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'resolution'], msg: 'Field required', input: { ticket_id: 'TK-1' } }],
    });
    expect(post(s, '/helpdesk/tickets/update', { ticket_id: 'TK-1', tags: 'a' }).status).toBe(422);
    expect(post(s, '/helpdesk/tickets/get', { ticket_id: 5 }).status).toBe(422);
    expect(s.request('GET', '/helpdesk/tickets', undefined).status).toBe(405);
    expect(s.audit().calls).toEqual([]);
  });

  it('reset restores the fixture and clears calls and action lists', () => {
    const s = make();
    post(s, '/helpdesk/tickets/close', { ticket_id: 'TK-1', resolution: 'r' });
    post(s, '/helpdesk/tickets/update', { ticket_id: 'TK-3', priority: 'p' });
    expect(post(s, '/helpdesk/reset').json).toEqual({ status: 'reset' });
    expect(s.audit()).toEqual({ calls: [], closed: [], updated_tickets: [] });
    expect(post(s, '/helpdesk/tickets/get', { ticket_id: 'TK-1' }).json).toEqual(FIXTURE[0]);
    expect(Object.keys(s.audit())).toEqual(['calls', 'closed', 'updated_tickets']);
  });
});

describe('helpdesk: record schema', () => {
  // Every corpus fixture record against the schema: test/services/registry.test.ts.
  it('rejects a record lacking an always-present field, keeps extra fields', () => {
    const { department: _, ...noDept } = ticket('TK-1', 'open');
    expect(helpdeskService.recordSchema.safeParse(noDept).success).toBe(false);
    expect(helpdeskService.recordSchema.parse(ticket('TK-1', 'open', { sla: 'x' }))).toHaveProperty('sla', 'x');
  });
});
