import { describe, expect, it } from 'vitest';
import { crmService } from '../../src/main/core/services/crm/crm.service';
import { Environment } from '../../src/main/core/services/environment';
import { dumpsPy, type PyObject, type PyValue } from '../../src/main/core/py/pyjson';
import { ServiceInstance } from '../../src/main/core/services/service-instance';

const NOW = new Date('2026-03-05T09:00:00Z');
// Fixture key order differs from the summary projection's order on purpose.
const customer = (id: string, tier: string, status: string, industry: string, extra: PyObject = {}): PyObject => ({
  customer_id: id,
  name: `Name ${id}`,
  contact_person: 'P',
  industry,
  tier,
  annual_revenue: 1000,
  status,
  notes: 'n',
  ...extra,
});
const FIXTURE: PyValue[] = [
  customer('CUS-1', 'VIP', 'active', 'Tech', {
    recent_orders: [{ order_id: 'O1', products: ['a'], total_price: 10.5, date: '2026-01-01' }],
  }),
  customer('CUS-2', 'standard', 'active', 'Trade'),
  customer('CUS-3', 'standard', 'inactive', 'Tech'),
];
const make = () => new ServiceInstance(crmService, FIXTURE, () => NOW);
const post = <S>(s: ServiceInstance<S>, p: string, body?: PyValue) => s.request('POST', p, body);
const ids = (r: { json?: PyValue }) => ((r.json as PyObject).customers as PyObject[]).map((t) => t.customer_id);

describe('crm: customers', () => {
  it('combines exact filters; null and "" are ignored; matching is case-sensitive', () => {
    const s = make();
    expect(ids(post(s, '/crm/customers', {}))).toEqual(['CUS-1', 'CUS-2', 'CUS-3']);
    expect(ids(post(s, '/crm/customers', { tier: 'standard' }))).toEqual(['CUS-2', 'CUS-3']);
    expect(ids(post(s, '/crm/customers', { tier: 'standard', industry: 'Tech' }))).toEqual(['CUS-3']);
    expect(ids(post(s, '/crm/customers', { status: '', tier: null, industry: 'Tech' }))).toEqual(['CUS-1', 'CUS-3']);
    expect(ids(post(s, '/crm/customers', { tier: 'vip' }))).toEqual([]);
    expect(ids(post(s, '/crm/customers', { industry: 'Te' }))).toEqual([]);
  });

  it('list items use the summary projection in upstream key order', () => {
    const r = post(make(), '/crm/customers', { status: 'inactive' });
    expect(dumpsPy(r.json)).toBe(
      '{"customers": [{"customer_id": "CUS-3", "name": "Name CUS-3", "contact_person": "P", "tier": "standard", ' +
        '"status": "inactive", "industry": "Tech", "annual_revenue": 1000}], "total": 1}',
    );
  });

  it('get returns a deep copy of the full record (nested floats kept), or a not-found', () => {
    const s = make();
    const r = post(s, '/crm/customers/get', { customer_id: 'CUS-1' });
    expect(r.json).toEqual(FIXTURE[0]);
    (((r.json as PyObject).recent_orders as PyObject[])[0]!.products as PyValue[]).push('b');
    expect(post(s, '/crm/customers/get', { customer_id: 'CUS-1' }).json).toEqual(FIXTURE[0]);
    expect(post(s, '/crm/customers/get', { customer_id: 'CUS-9' }).json).toEqual({ error: 'Customer CUS-9 not found' });
  });

  it('the health probe lists with all filters null and is logged first', () => {
    const env = new Environment({
      services: [{ id: 'crm', records: FIXTURE }],
      tools: [{ name: 'crm_list_customers', url: 'http://localhost:9110/crm/customers' }],
      now: () => NOW,
    });
    env.call('crm_list_customers', { tier: 'VIP' });
    const calls = env.audits().crm!.calls as PyObject[];
    expect(calls.map((c) => c.request_body)).toEqual([
      { status: null, tier: null, industry: null },
      { status: null, tier: 'VIP', industry: null },
    ]);
  });

  it('wrong types are 422 and unlogged', () => {
    const s = make();
    expect(post(s, '/crm/customers', { tier: ['vip'] }).json).toEqual({
      detail: [{ type: 'string_type', loc: ['body', 'tier'], msg: 'Input should be a valid string', input: ['vip'] }],
    });
    expect(post(s, '/crm/customers/get', {}).status).toBe(422);
    expect(s.audit().calls).toEqual([]);
  });
});

describe('crm: export', () => {
  it('records the report without validating ids; requires every field', () => {
    const s = make();
    const r = post(s, '/crm/export', { title: 'T', customer_ids: ['CUS-404'], summary: 'S', format: 'csv' });
    const report = { title: 'T', customer_ids: ['CUS-404'], summary: 'S', timestamp: '2026-03-05T09:00:00+00:00' };
    expect(dumpsPy(r.json)).toBe(dumpsPy({ status: 'exported', report }));
    expect(s.audit().exported_reports).toEqual([report]);
    expect((s.audit().calls as PyObject[])[0]!.request_body).toEqual({
      title: 'T',
      customer_ids: ['CUS-404'],
      summary: 'S',
    });
    const missing = post(s, '/crm/export', { customer_ids: [] }).json as PyObject;
    expect((missing.detail as PyObject[]).map((d) => (d.loc as string[])[1])).toEqual(['title', 'summary']);
    expect(post(s, '/crm/export', { title: 'T', customer_ids: 'CUS-1', summary: 'S' }).status).toBe(422);
    expect(post(s, '/crm/export', { title: 'T', customer_ids: [], summary: ['S'] }).status).toBe(422);
    expect(s.audit().calls).toHaveLength(1);
  });

  it('reset clears calls and exported_reports', () => {
    const s = make();
    post(s, '/crm/export', { title: 'T', customer_ids: [], summary: 'S' });
    post(s, '/crm/reset');
    expect(s.audit()).toEqual({ calls: [], exported_reports: [] });
  });
});

describe('crm: record schema', () => {
  // Every corpus fixture record against the schema: test/services/registry.test.ts.
  it('requires an integer annual_revenue and the always-present fields', () => {
    expect(crmService.recordSchema.safeParse(customer('C', 't', 's', 'i', { annual_revenue: 1.5 })).success).toBe(
      false,
    );
    const { tier: _, ...noTier } = customer('C', 't', 's', 'i');
    expect(crmService.recordSchema.safeParse(noTier).success).toBe(false);
  });
});
