import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { SERVICE_IDS } from '../../src/shared/contract/entities/slot';
import { Environment } from '../../src/main/core/services/environment';
import { CALLS, RECORDS } from './tool-catalog.samples';
import { isObject } from '../../src/main/core/py/pyjson';
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

  it('every route exists, every input_schema agrees with its request model (fields, types, required, defaults)', () => {
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

  it('every tool answers a well-formed call (valid per its input_schema) with status < 400 and no error body', () => {
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

  it('taskToolEntry words the tool in the task language; toolEndpointEntry uses the registry or given port', () => {
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
