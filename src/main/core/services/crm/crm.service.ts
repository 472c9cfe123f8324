import { z } from 'zod';
import { defineService } from '../define';
import { count, dateText, email, oneOf } from '../record-fields';
import { deepCopy, findBy, notFound, objects, project } from '../lib';
import type { PyObject } from '../../py/pyjson';
import { opt, req } from '../request-model';

/** reference/claw-eval.md §6.14. Export never checks that the customer ids exist. */
const CustomerRecord = z.looseObject({
  customer_id: z.string(),
  name: z.string(),
  contact_person: z.string(),
  industry: z.string(),
  // Upstream fixtures write VIP and vip both; both are kept as they are.
  tier: oneOf(['standard', 'premium', 'vip', 'VIP', 'enterprise']),
  annual_revenue: count(),
  // at_risk: the generator's churn-risk customers (upstream's CRM keeps status as free text).
  status: oneOf(['active', 'inactive', 'churned', 'prospect', 'at_risk']),
  email: email().optional(),
  contact_email: email().optional(),
  last_contact_date: dateText().optional(),
});

type State = { customers: PyObject[] };
const SUMMARY = ['customer_id', 'name', 'contact_person', 'tier', 'status', 'industry', 'annual_revenue'] as const;
const FILTERS = ['status', 'tier', 'industry'] as const;

export const crmService = defineService<State>({
  id: 'crm',
  port: 9110,
  fixtureEnv: 'CRM_FIXTURES',
  defaultFixture: 'tasks/T023zh_crm_data_export/fixtures/crm/customers.json',
  probe: { method: 'POST', path: '/crm/customers' },
  actionKeys: ['exported_reports'],
  recordSchema: CustomerRecord,
  recordKey: 'customer_id',
  upstreamReads: ['customer_id', 'name', 'contact_person', 'tier', 'status', 'industry', 'annual_revenue'],
  load: (records) => ({ customers: objects(records) }),
  routes: {
    '/crm/customers': {
      model: { status: opt('str'), tier: opt('str'), industry: opt('str') },
      noBody: 'defaults',
      handle: (r, { state }) => {
        // Exact, case-sensitive equality; null and "" mean "no filter" (truthiness upstream).
        const customers = state.customers
          .filter((c) => FILTERS.every((k) => !r[k] || c[k] === r[k]))
          .map((c) => project(c, SUMMARY));
        return { customers, total: customers.length };
      },
    },
    '/crm/customers/get': {
      model: { customer_id: req('str') },
      handle: (r, { state }) => {
        const c = findBy(state.customers, 'customer_id', r.customer_id!);
        return c ? deepCopy(c) : notFound('Customer', r.customer_id!);
      },
    },
    '/crm/export': {
      model: { title: req('str'), customer_ids: req('list[str]'), summary: req('str') },
      handle: (r, ctx) => {
        const report = {
          title: r.title!,
          customer_ids: r.customer_ids!,
          summary: r.summary!,
          timestamp: ctx.timestamp(),
        };
        ctx.record('exported_reports', report);
        return { status: 'exported', report };
      },
    },
  },
});
