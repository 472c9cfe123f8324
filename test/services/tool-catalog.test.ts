import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { SERVICE_IDS } from '../../src/shared/contract/entities/slot';
import { Environment } from '../../src/main/core/services/environment';
import { isObject, type PyValue } from '../../src/main/core/services/pyjson';
import { SERVICE_REGISTRY } from '../../src/main/core/services/registry';
import type { FieldType } from '../../src/main/core/services/request-model';
import {
  catalogTool,
  TOOL_CATALOG,
  taskToolEntry,
  toolEndpointEntry,
  toolsOf,
} from '../../src/main/core/services/tool-catalog';

const NOW = new Date('2026-03-05T09:00:00Z');

/** One or two records per service: enough for every get/update to find its target. */
const RECORDS: Record<string, PyValue[]> = {
  gmail: [
    {
      message_id: 'msg_1',
      from: 'a@x.com',
      to: 'me@x.com',
      subject: 'Hi',
      body: 'Hello',
      date: '2026-03-04T08:00:00Z',
      labels: ['INBOX'],
      is_read: false,
    },
  ],
  calendar: [
    {
      event_id: 'evt_101',
      title: 'Sync',
      start_time: '2026-03-06T10:00:00Z',
      end_time: '2026-03-06T10:30:00Z',
      attendees: ['a@x.com'],
      location: 'Room 1',
    },
    {
      event_id: 'evt_102',
      title: 'Review',
      start_time: '2026-03-06T14:00:00Z',
      end_time: '2026-03-06T15:00:00Z',
      attendees: ['b@x.com'],
      location: 'Room 2',
    },
  ],
  todo: [{ task_id: 'todo_101', title: 'Report', status: 'pending', priority: 'low', due_date: '2026-03-07' }],
  contacts: [{ contact_id: 'c_1', name: 'Ana Diaz', department: 'Sales', title: 'Rep', email: 'a@x.com', phone: '1' }],
  finance: [{ transaction_id: 'txn_1', date: '2026-03-01', amount: 12.5, description: 'Taxi' }],
  notes: [
    {
      note_id: 'note_1',
      title: 'Weekly',
      created_at: '2026-03-02T10:00:00Z',
      participants: ['Ana'],
      content: 'x',
      duration_minutes: 30,
    },
  ],
  kb: [
    {
      article_id: 'kb_1',
      title: 'VPN guide',
      category: 'IT',
      tags: ['vpn'],
      content: 'Connect.',
      last_updated: '2026-01-01',
      views: 3,
    },
  ],
  helpdesk: [
    {
      ticket_id: 'TK-1',
      title: 'VPN down',
      description: 'd',
      reporter: 'Ana',
      department: 'Sales',
      priority: 'low',
      status: 'open',
      created_at: '2026-03-04T08:00:00Z',
    },
    {
      ticket_id: 'TK-2',
      title: 'Printer',
      description: 'd',
      reporter: 'Bo',
      department: 'IT',
      priority: 'low',
      status: 'open',
      created_at: '2026-03-04T09:00:00Z',
    },
  ],
  inventory: [{ product_id: 'SKU-1', name: 'Cable', category: 'IT', current_stock: 3 }],
  rss: [
    {
      article_id: 'rss_1',
      title: 'News',
      source: 'Daily',
      category: 'AI',
      published_at: '2026-03-04T08:00:00Z',
      summary: 's',
      content: 'c',
      word_count: 10,
    },
  ],
  crm: [
    {
      customer_id: 'CUS-1',
      name: 'Acme',
      contact_person: 'Ana',
      industry: 'Tech',
      tier: 'VIP',
      annual_revenue: 10,
      status: 'active',
    },
  ],
  config: [
    {
      integration_id: 'INT-1',
      name: 'Stripe',
      service: 'payments',
      status: 'active',
      last_verified: '2026-01-01',
      monthly_calls: 10,
      error_rate: 0.01,
      api_key: 'sk_test',
    },
  ],
  scheduler: [
    {
      job_id: 'JOB-101',
      name: 'backup',
      cron_expression: '0 2 * * *',
      enabled: true,
      last_status: 'success',
      last_run: '2026-03-04T02:00:00Z',
      tags: ['ops'],
      execution_history: [{ run_time: '2026-03-04T02:00:00Z', status: 'success' }],
    },
  ],
};

/** A well-formed call of every catalog tool (a test fails when a tool is added without one). */
const CALLS: Record<string, Record<string, PyValue>> = {
  gmail_list_messages: { days_back: 3 },
  gmail_get_message: { message_id: 'msg_1' },
  gmail_send_message: { to: 'a@x.com', subject: 'S', body: 'B' },
  gmail_save_draft: { to: 'a@x.com', subject: 'S', body: 'B', reply_to_message_id: 'msg_1' },
  calendar_list_events: { date: '2026-03-06', days: 2 },
  calendar_get_event: { event_id: 'evt_101' },
  calendar_get_user_events: { user: 'a@x.com', date: '2026-03-06' },
  calendar_create_event: {
    title: 'New',
    start_time: '2026-03-07T10:00:00Z',
    end_time: '2026-03-07T11:00:00Z',
    attendees: ['a@x.com'],
    location: 'R',
  },
  calendar_delete_event: { event_id: 'evt_102' },
  todo_list_tasks: { status: 'pending' },
  todo_create_task: { title: 'T', description: 'D', priority: 'high', due_date: '2026-03-09' },
  todo_update_task: { task_id: 'todo_101', status: 'completed', tags: ['x'] },
  todo_delete_task: { task_id: 'todo_101' },
  contacts_search: { query: 'Ana', department: 'Sales' },
  contacts_get: { contact_id: 'c_1' },
  contacts_send_message: { contact_id: 'c_1', message: 'Hi' },
  finance_list_transactions: { start_date: '2026-03-01', end_date: '2026-03-31' },
  finance_get_transaction: { transaction_id: 'txn_1' },
  finance_submit_report: { title: 'R', transactions: ['txn_1'], total_amount: 12.5 },
  notes_list: { max_results: 5 },
  notes_get: { note_id: 'note_1' },
  notes_share: { note_id: 'note_1', recipients: ['a@x.com'] },
  kb_search: { query: 'vpn', max_results: 3 },
  kb_get_article: { article_id: 'kb_1' },
  kb_update_article: { article_id: 'kb_1', content: 'New text' },
  helpdesk_list_tickets: { status: 'all' },
  helpdesk_get_ticket: { ticket_id: 'TK-1' },
  helpdesk_update_ticket: { ticket_id: 'TK-1', priority: 'high', tags: ['vpn'], category: 'network' },
  helpdesk_close_ticket: { ticket_id: 'TK-2', resolution: 'Fixed' },
  inventory_list_products: { category: 'IT' },
  inventory_get_product: { product_id: 'SKU-1' },
  inventory_create_order: { product_id: 'SKU-1', quantity: 20, supplier: 'Acme' },
  rss_list_feeds: { category: 'AI' },
  rss_list_articles: { source: 'Daily', max_results: 5 },
  rss_get_article: { article_id: 'rss_1' },
  rss_publish: { title: 'Digest', content: 'C', recipients: ['a@x.com'] },
  crm_list_customers: { tier: 'VIP' },
  crm_get_customer: { customer_id: 'CUS-1' },
  crm_export_report: { title: 'R', customer_ids: ['CUS-1'], summary: 'S' },
  config_list_integrations: { status: 'active' },
  config_get_integration: { integration_id: 'INT-1' },
  config_update_integration: { integration_id: 'INT-1', status: 'maintenance', notes: 'n' },
  config_send_notification: { to: 'a@x.com', subject: 'S', body: 'B' },
  scheduler_list_jobs: { status: 'success', enabled: true, tag: 'ops' },
  scheduler_get_job: { job_id: 'JOB-101' },
  scheduler_job_history: { job_id: 'JOB-101', limit: 5 },
  scheduler_create_job: {
    name: 'n',
    cron_expression: '0 3 * * *',
    action: 'a',
    enabled: false,
    tags: ['t'],
    created_by: 'me',
  },
  scheduler_update_job: { job_id: 'JOB-101', enabled: false },
  scheduler_delete_job: { job_id: 'JOB-101' },
};

const TYPE_OF: Record<FieldType, string | undefined> = {
  str: 'string',
  int: 'integer',
  float: 'number',
  bool: 'boolean',
  'list[str]': 'array',
  list: 'array',
  any: undefined,
};

const freshEnvironment = (service: string) =>
  new Environment({
    now: () => NOW,
    services: [{ id: service, records: structuredClone(RECORDS[service]!) }],
    tools: toolsOf(service).map((t) => ({ name: t.name, url: toolEndpointEntry(t).url })),
  });

describe('tool catalog', () => {
  it('covers the 13 business services, each with reads and at least one write, names unique', () => {
    expect(new Set(TOOL_CATALOG.map((t) => t.service))).toEqual(new Set(SERVICE_IDS));
    expect(new Set(TOOL_CATALOG.map((t) => t.name)).size).toBe(TOOL_CATALOG.length);
    for (const s of SERVICE_IDS) {
      expect(
        toolsOf(s).some((t) => !t.writes),
        s,
      ).toBe(true);
      expect(
        toolsOf(s).some((t) => t.writes),
        s,
      ).toBe(true);
    }
    expect(Object.keys(CALLS).sort()).toEqual(TOOL_CATALOG.map((t) => t.name).sort());
  });

  it('offers none of the tools that fail in parity mode (missing routes, schema/server mismatches)', () => {
    for (const broken of ['todo_get_task', 'rss_get_feed', 'finance_report_submit', 'send_report'])
      expect(catalogTool(broken), broken).toBeUndefined();
    expect(catalogTool('calendar_list_events')!.input_schema.required).toEqual(['date']);
  });

  it('every route exists and every input_schema agrees with its request model (fields, types, required, defaults)', () => {
    for (const t of TOOL_CATALOG) {
      const route = SERVICE_REGISTRY.get(t.service)!.routes[t.route];
      expect(route, `${t.name}: ${t.service} has no route ${t.route}`).toBeDefined();
      const model = route!.model;
      expect(Object.keys(t.input_schema.properties), t.name).toEqual(Object.keys(model));
      const required = Object.entries(model)
        .filter(([, f]) => !('default' in f))
        .map(([k]) => k);
      expect([...t.input_schema.required].sort(), t.name).toEqual(required.sort());
      for (const [k, f] of Object.entries(model)) {
        const prop = t.input_schema.properties[k]!;
        expect(prop.type, `${t.name}.${k}`).toBe(TYPE_OF[f.type]);
        if (f.default !== undefined && f.default !== null) expect(prop.default, `${t.name}.${k}`).toEqual(f.default);
        else expect(prop.default, `${t.name}.${k}`).toBeUndefined();
      }
      expect(Object.keys(t.zh.properties)).toEqual(Object.keys(model));
      expect(t.zh.description).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('writes is true exactly for the tools that leave an audit action record (todo creation: state only)', () => {
    const actions = (env: Environment, service: string) =>
      Object.entries(env.audits()[service]!)
        .filter(([k]) => k !== 'calls')
        .reduce((n, [, v]) => n + (v as unknown[]).length, 0);
    for (const t of TOOL_CATALOG) {
      const env = freshEnvironment(t.service);
      const before = actions(env, t.service);
      const listed = JSON.stringify(env.services.get(t.service)!.request('POST', toolsOf(t.service)[0]!.route, {}));
      env.call(t.name, CALLS[t.name]!);
      const recorded = actions(env, t.service) > before;
      const changed =
        JSON.stringify(env.services.get(t.service)!.request('POST', toolsOf(t.service)[0]!.route, {})) !== listed;
      expect(recorded || (t.name === 'todo_create_task' && changed), t.name).toBe(t.writes);
    }
  });

  it('every tool answers a well-formed call (valid against its input_schema) with status < 400 and no error body', () => {
    const ajv = new Ajv({ strict: true });
    for (const t of TOOL_CATALOG) {
      const args = CALLS[t.name]!;
      const check = ajv.compile(t.input_schema);
      expect(check(args), `${t.name}: ${ajv.errorsText(check.errors)}`).toBe(true);
      const env = freshEnvironment(t.service);
      const d = env.call(t.name, args);
      expect(d.status, `${t.name}: ${d.text}`).toBeLessThan(400);
      expect(isObject(d.body) && 'error' in d.body, `${t.name}: ${d.text}`).toBe(false);
      expect(d.endpointUrl).toBe(`http://localhost:${SERVICE_REGISTRY.get(t.service)!.port}${t.route}`);
    }
  });

  it('a call missing a required field is refused by the schema and by the route alike (422)', () => {
    const ajv = new Ajv({ strict: true });
    for (const t of TOOL_CATALOG.filter((x) => x.input_schema.required.length)) {
      const args = { ...CALLS[t.name]! };
      delete args[t.input_schema.required[0]!];
      expect(ajv.validate(t.input_schema, args), t.name).toBe(false);
      expect(freshEnvironment(t.service).call(t.name, args).status, t.name).toBe(422);
    }
  });

  it('taskToolEntry words the tool in the task language; toolEndpointEntry uses the registry port or the given one', () => {
    const en = taskToolEntry('helpdesk_update_ticket');
    const zh = taskToolEntry('helpdesk_update_ticket', 'zh');
    expect(en.description).toBe('Update ticket information');
    expect(zh.description).toBe('更新工单信息');
    expect(zh.input_schema.properties.ticket_id!.description).toBe('工单ID');
    expect(zh.input_schema.required).toEqual(['ticket_id']);
    // Entries are copies: editing one never changes the catalog.
    zh.input_schema.properties.ticket_id!.description = 'x';
    expect(catalogTool('helpdesk_update_ticket')!.zh.properties.ticket_id).toBe('工单ID');
    expect(catalogTool('helpdesk_update_ticket')!.input_schema.properties.ticket_id!.description).toBe('Ticket ID');
    expect(toolEndpointEntry('crm_export_report')).toEqual({
      tool_name: 'crm_export_report',
      url: 'http://localhost:9110/crm/export',
      method: 'POST',
    });
    expect(toolEndpointEntry('crm_export_report', 9160).url).toBe('http://localhost:9160/crm/export');
    expect(() => taskToolEntry('nope')).toThrow(/not in the tool catalog/);
  });
});
