import { z } from 'zod';
import { defineService } from '../define';
import { amount, count, dateText, oneOf } from '../record-fields';
import { deepCopy, findBy, notFound, objects, project } from '../lib';
import type { PyObject } from '../../py/pyjson';
import { opt, req } from '../request-model';

/** reference/claw-eval.md §6.15. */
const IntegrationRecord = z.looseObject({
  integration_id: z.string(),
  name: z.string(),
  service: z.string(),
  status: oneOf(['active', 'inactive', 'degraded', 'expired', 'error']),
  last_verified: dateText().nullable(),
  monthly_calls: count(),
  error_rate: amount(0),
});

type State = { integrations: PyObject[] };

/** The list projection leaves out the secrets; only /get exposes api_key / api_secret / webhook_url. */
const SUMMARY = [
  'integration_id',
  'name',
  'service',
  'status',
  'last_verified',
  'monthly_calls',
  'error_rate',
] as const;

/** Python truthiness of an optional string field: None and "" are both "not given". */
const given = (v: unknown): v is string => typeof v === 'string' && v !== '';

export const configService = defineService<State>({
  id: 'config',
  port: 9111,
  fixtureEnv: 'CONFIG_FIXTURES',
  defaultFixture: 'tasks/T027zh_api_config_audit/fixtures/config/integrations.json',
  probe: { method: 'POST', path: '/config/integrations' },
  actionKeys: ['updates', 'notifications'],
  recordSchema: IntegrationRecord,
  recordKey: 'integration_id',
  upstreamReads: ['integration_id', 'name', 'service', 'status', 'last_verified', 'monthly_calls', 'error_rate'],
  load: (records) => ({ integrations: objects(records) }),
  routes: {
    '/config/integrations': {
      model: { status: opt('str') },
      noBody: 'defaults',
      handle: (r, { state }) => {
        const status = r.status;
        const items = state.integrations
          .filter((i) => !given(status) || i.status === status)
          .map((i) => project(i, SUMMARY));
        return { integrations: items, total: items.length };
      },
    },
    '/config/integrations/get': {
      model: { integration_id: req('str') },
      handle: (r, { state }) => {
        const i = findBy(state.integrations, 'integration_id', r.integration_id!);
        return i ? deepCopy(i) : notFound('Integration', r.integration_id!);
      },
    },
    '/config/integrations/update': {
      model: { integration_id: req('str'), status: opt('str'), notes: opt('str') },
      handle: (r, ctx) => {
        const i = findBy(ctx.state.integrations, 'integration_id', r.integration_id!);
        if (!i) return notFound('Integration', r.integration_id!);
        if (given(r.status)) i.status = r.status;
        if (given(r.notes)) i.notes = r.notes;
        // `changes` lists every non-null request field, so an empty string shows here although it was not applied.
        const changes: PyObject = Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null));
        ctx.record('updates', { integration_id: r.integration_id!, changes, timestamp: ctx.timestamp() });
        return { status: 'updated', integration: deepCopy(i) };
      },
    },
    '/config/notify': {
      model: { to: req('str'), subject: req('str'), body: req('str') },
      handle: (r, ctx) => {
        const notification = { to: r.to!, subject: r.subject!, body: r.body!, timestamp: ctx.timestamp() };
        ctx.record('notifications', notification);
        return { status: 'sent', notification };
      },
    },
  },
});
