import { describe, expect, it } from 'vitest';
import { configService } from '../../src/main/core/services/config/config.service';
import { Environment } from '../../src/main/core/services/environment';
import { dumpsPy, PyFloat, type PyObject, type PyValue } from '../../src/main/core/py/pyjson';
import { ServiceInstance } from '../../src/main/core/services/service-instance';

const NOW = new Date('2026-03-05T09:00:00Z');
const TS = '2026-03-05T09:00:00+00:00';
const FIXTURE: PyValue[] = [
  {
    integration_id: 'INT-001',
    name: 'Stripe',
    service: 'stripe',
    status: 'active',
    api_key: 'sk_live_x',
    api_secret: 'whsec_y',
    webhook_url: 'https://h',
    last_verified: '2026-02-25T10:00:00Z',
    monthly_calls: 45200,
    error_rate: new PyFloat(0.02),
    notes: 'prod',
  },
  {
    integration_id: 'INT-002',
    name: 'GitHub',
    service: 'github',
    status: 'expired',
    last_verified: '2025-12-01T09:00:00Z',
    monthly_calls: 0,
    error_rate: new PyFloat(1),
  },
  {
    integration_id: 'INT-003',
    name: 'S3',
    service: 'aws_s3',
    status: 'active',
    last_verified: '2026-02-20T08:00:00Z',
    monthly_calls: 890000,
    error_rate: 0,
  },
];
const make = () => new ServiceInstance(configService, FIXTURE, () => NOW);
type Svc = ReturnType<typeof make>;
const post = (s: Svc, p: string, body?: PyValue) => s.request('POST', p, body);
const json = (s: Svc, p: string, body?: PyValue) => post(s, p, body).json as PyObject;
const calls = (s: Svc) => s.audit().calls as PyObject[];
const ids = (v: PyValue | undefined) => (v as PyObject[]).map((i) => i.integration_id);

describe('config service', () => {
  it('lists summaries without secrets, in summary key order, with floats kept as floats', () => {
    const s = make();
    const r = json(s, '/config/integrations', {});
    expect(r.total).toBe(3);
    expect(dumpsPy((r.integrations as PyObject[])[0]!)).toBe(
      '{"integration_id": "INT-001", "name": "Stripe", "service": "stripe", "status": "active", "last_verified": ' +
        '"2026-02-25T10:00:00Z", "monthly_calls": 45200, "error_rate": 0.02}',
    );
    expect(dumpsPy((r.integrations as PyObject[])[1]!.error_rate)).toBe('1.0');
    expect(dumpsPy((r.integrations as PyObject[])[2]!.error_rate)).toBe('0');
  });

  it('filters on an exact status; an empty string or null means no filter', () => {
    const s = make();
    expect(ids(json(s, '/config/integrations', { status: 'active' }).integrations)).toEqual(['INT-001', 'INT-003']);
    expect(ids(json(s, '/config/integrations', { status: 'Active' }).integrations)).toEqual([]);
    expect(ids(json(s, '/config/integrations', { status: 'act' }).integrations)).toEqual([]);
    expect(json(s, '/config/integrations', { status: '' }).total).toBe(3);
    expect(json(s, '/config/integrations', { status: null }).total).toBe(3);
    expect(post(s, '/config/integrations', { status: 1 }).status).toBe(422);
  });

  it('answers the body-less health probe with the defaults and logs it', () => {
    const env = new Environment({ now: () => NOW, services: [{ id: 'config', records: FIXTURE }], tools: [] });
    const audit = env.audits().config!;
    expect(audit).toEqual({
      calls: [
        expect.objectContaining({ endpoint: '/config/integrations', request_body: { status: null }, timestamp: TS }),
      ],
      updates: [],
      notifications: [],
    });
    expect(Object.keys(audit)).toEqual(['calls', 'updates', 'notifications']);
  });

  it('gets the full record with its secrets as a deep copy, or a logged not-found', () => {
    const s = make();
    const r = json(s, '/config/integrations/get', { integration_id: 'INT-001' });
    expect(r).toEqual(FIXTURE[0]);
    expect(Object.keys(r)).toEqual(Object.keys(FIXTURE[0] as PyObject));
    r.status = 'mutated';
    expect(json(s, '/config/integrations/get', { integration_id: 'INT-001' }).status).toBe('active');
    expect(post(s, '/config/integrations/get', { integration_id: 'INT-9' })).toEqual({
      status: 200,
      json: { error: 'Integration INT-9 not found' },
    });
    expect(calls(s)).toHaveLength(3);
  });

  it('422s a missing or mistyped id without logging', () => {
    const s = make();
    expect(post(s, '/config/integrations/get', {})).toEqual({
      status: 422,
      json: { detail: [{ type: 'missing', loc: ['body', 'integration_id'], msg: 'Field required', input: {} }] },
    });
    expect(post(s, '/config/integrations/get', { integration_id: 7 }).status).toBe(422);
    expect(post(s, '/config/integrations/get').status).toBe(422);
    expect(calls(s)).toEqual([]);
  });

  it('updates status/notes in place when non-empty and records every non-null field as changes', () => {
    const s = make();
    const r = json(s, '/config/integrations/update', {
      integration_id: 'INT-002',
      status: 'active',
      notes: '',
      extra: 'dropped',
    });
    expect((r.integration as PyObject).status).toBe('active');
    // "" is listed in changes but not applied: INT-002 had no notes and still has none.
    expect('notes' in (r.integration as PyObject)).toBe(false);
    expect(calls(s)[0]!.request_body).toEqual({ integration_id: 'INT-002', status: 'active', notes: '' });
    expect(s.audit().updates).toEqual([
      { integration_id: 'INT-002', changes: { integration_id: 'INT-002', status: 'active', notes: '' }, timestamp: TS },
    ]);
    json(s, '/config/integrations/update', { integration_id: 'INT-001', notes: 'rotated' });
    expect((s.audit().updates as PyObject[])[1]!.changes).toEqual({ integration_id: 'INT-001', notes: 'rotated' });
    expect(ids(json(s, '/config/integrations', { status: 'active' }).integrations)).toEqual([
      'INT-001',
      'INT-002',
      'INT-003',
    ]);
    expect(json(s, '/config/integrations/get', { integration_id: 'INT-001' }).notes).toBe('rotated');
  });

  it('returns a copy from update, so the logged response does not follow later updates', () => {
    const s = make();
    json(s, '/config/integrations/update', { integration_id: 'INT-003', status: 'degraded' });
    json(s, '/config/integrations/update', { integration_id: 'INT-003', status: 'expired' });
    const logged = calls(s).map((c) => ((c.response_body as PyObject).integration as PyObject).status);
    expect(logged).toEqual(['degraded', 'expired']);
  });

  it('answers an update of an unknown id with not-found, logged, and no update record', () => {
    const s = make();
    expect(json(s, '/config/integrations/update', { integration_id: 'INT-404', status: 'active' })).toEqual({
      error: 'Integration INT-404 not found',
    });
    expect(calls(s)).toHaveLength(1);
    expect(s.audit().updates).toEqual([]);
  });

  it('sends notifications without checking anything, shared between response and audit', () => {
    const s = make();
    const r = json(s, '/config/notify', { to: 'ops@x', subject: '复盘', body: 'a\nb' });
    expect(dumpsPy(r)).toBe(
      `{"status": "sent", "notification": {"to": "ops@x", "subject": "复盘", "body": "a\\nb", "timestamp": "${TS}"}}`,
    );
    expect(s.audit().notifications).toEqual([r.notification]);
    const bad = post(s, '/config/notify', { to: 'ops@x', subject: 5 });
    expect(bad.status).toBe(422);
    expect((bad.json as { detail: PyObject[] }).detail.map((d) => [d.type, (d.loc as string[])[1]])).toEqual([
      ['string_type', 'subject'],
      ['missing', 'body'],
    ]);
    expect(calls(s)).toHaveLength(1);
  });

  it('reset restores the fixture and clears calls and action lists', () => {
    const s = make();
    json(s, '/config/integrations/update', { integration_id: 'INT-001', status: 'expired' });
    json(s, '/config/notify', { to: 'a', subject: 'b', body: 'c' });
    expect(post(s, '/config/reset')).toEqual({ status: 200, json: { status: 'reset' } });
    expect(s.audit()).toEqual({ calls: [], updates: [], notifications: [] });
    expect(json(s, '/config/integrations/get', { integration_id: 'INT-001' }).status).toBe('active');
    expect(s.request('GET', '/config/integrations', undefined).status).toBe(405);
  });

  // Record schemas against the corpus: test/services/registry.test.ts.
  it('the record schema refuses a null last_verified', () => {
    expect(
      configService.recordSchema.safeParse({
        integration_id: 'INT-1',
        name: 'x',
        service: 'y',
        status: 'active',
        last_verified: null,
        monthly_calls: 1,
      }).success,
    ).toBe(false);
  });
});
