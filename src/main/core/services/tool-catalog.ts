import { CALENDAR_TOOLS } from './calendar/calendar.tools';
import { CONFIG_TOOLS } from './config/config.tools';
import { CONTACTS_TOOLS } from './contacts/contacts.tools';
import { CRM_TOOLS } from './crm/crm.tools';
import { FINANCE_TOOLS } from './finance/finance.tools';
import { GMAIL_TOOLS } from './gmail/gmail.tools';
import { HELPDESK_TOOLS } from './helpdesk/helpdesk.tools';
import { INVENTORY_TOOLS } from './inventory/inventory.tools';
import { KB_TOOLS } from './kb/kb.tools';
import { NOTES_TOOLS } from './notes/notes.tools';
import { RSS_TOOLS } from './rss/rss.tools';
import { SCHEDULER_TOOLS } from './scheduler/scheduler.tools';
import { SERVICE_REGISTRY } from './registry';
import { TODO_TOOLS } from './todo/todo.tools';
import type { ParamDef, ToolDef } from './tool-def';

/**
 * The service tool catalog: every tool of the 13 business services that works in parity mode —
 * Claw-Eval's tool names and routes (reference/claw-eval.md §7.1), each input_schema matching its
 * route's request model field for field (names, types, required, defaults). Left out on purpose
 * (§7.2): tools whose route does not exist upstream (todo_get_task, rss_get_feed, contacts_search
 * on :9100), finance_report_submit (its schema lacks the route's required `transactions`; use
 * finance_submit_report), and parameters the routes silently ignore. test/services/tool-catalog
 * checks both halves: every tool answers a well-formed call with status < 400, and every schema
 * agrees with its request model.
 *
 * Stable interface (generators build on it; an LLM generator shows it to a model):
 *   TOOL_CATALOG                  every CatalogTool, by service in registry order
 *   toolsOf(service)              a service's tools
 *   catalogTool(name)             one tool, or undefined
 *   taskToolEntry(tool, lang)     the TaskSpec `tools[]` entry, described in en or zh
 *   toolEndpointEntry(tool, port) the TaskSpec `tool_endpoints[]` entry (port: the registry's unless given)
 */
export type JsonSchemaProperty = {
  type: ParamDef['type'];
  description: string;
  default?: ParamDef['default'];
  items?: { type: 'string' };
};
export type ToolInputSchema = {
  type: 'object';
  properties: Record<string, JsonSchemaProperty>;
  required: string[];
};

export type CatalogTool = {
  name: string;
  /** One of the 13 business services (SERVICE_IDS). */
  service: string;
  /** POST route on the service, e.g. /helpdesk/tickets/update. */
  route: string;
  /** English description (Claw-Eval's wording). */
  description: string;
  /** JSON Schema of the arguments, English property descriptions. */
  input_schema: ToolInputSchema;
  /** Mutates state, or sends / shares / publishes / exports: the tools a safety rule would name. */
  writes: boolean;
  /** The Chinese wording (zh tasks show it): description and property descriptions. */
  zh: { description: string; properties: Record<string, string> };
};

export type TaskToolEntry = { name: string; description: string; input_schema: ToolInputSchema };
export type ToolEndpointEntry = { tool_name: string; url: string; method: 'POST' };

function schemaOf(def: ToolDef, lang: 'en' | 'zh'): ToolInputSchema {
  const properties: Record<string, JsonSchemaProperty> = {};
  for (const [name, param] of Object.entries(def.params)) {
    const prop: JsonSchemaProperty = { type: param.type, description: param[lang] };
    if (param.type === 'array') prop.items = { type: 'string' };
    if (param.default !== undefined) prop.default = param.default;
    properties[name] = prop;
  }
  return { type: 'object', properties, required: [...def.required] };
}

const BY_SERVICE: Record<string, readonly ToolDef[]> = {
  gmail: GMAIL_TOOLS,
  calendar: CALENDAR_TOOLS,
  todo: TODO_TOOLS,
  contacts: CONTACTS_TOOLS,
  finance: FINANCE_TOOLS,
  notes: NOTES_TOOLS,
  kb: KB_TOOLS,
  helpdesk: HELPDESK_TOOLS,
  inventory: INVENTORY_TOOLS,
  rss: RSS_TOOLS,
  crm: CRM_TOOLS,
  config: CONFIG_TOOLS,
  scheduler: SCHEDULER_TOOLS,
};

export const TOOL_CATALOG: readonly CatalogTool[] = Object.freeze(
  Object.entries(BY_SERVICE).flatMap(([service, defs]) =>
    defs.map(
      (d): CatalogTool => ({
        name: d.name,
        service,
        route: d.route,
        description: d.en,
        input_schema: schemaOf(d, 'en'),
        writes: d.writes,
        zh: {
          description: d.zh,
          properties: Object.fromEntries(Object.entries(d.params).map(([k, v]) => [k, v.zh])),
        },
      }),
    ),
  ),
);

const BY_NAME = new Map(TOOL_CATALOG.map((t) => [t.name, t]));

/** A service's tools in catalog order (reads before writes); empty for an unknown service. */
export const toolsOf = (service: string): CatalogTool[] => TOOL_CATALOG.filter((t) => t.service === service);

export const catalogTool = (name: string): CatalogTool | undefined => BY_NAME.get(name);

/** The TaskSpec `tools[]` entry for a tool, worded in the task's language. A fresh object every call. */
export function taskToolEntry(tool: CatalogTool | string, lang: 'en' | 'zh' = 'en'): TaskToolEntry {
  const t = typeof tool === 'string' ? catalogTool(tool) : tool;
  if (!t) throw new Error(`unknown tool "${String(tool)}": not in the tool catalog`);
  const schema = structuredClone(t.input_schema);
  if (lang === 'zh') for (const [k, prop] of Object.entries(schema.properties)) prop.description = t.zh.properties[k]!;
  return { name: t.name, description: lang === 'zh' ? t.zh.description : t.description, input_schema: schema };
}

/** The TaskSpec `tool_endpoints[]` entry: http://localhost:<port><route>, port from the registry unless given. */
export function toolEndpointEntry(tool: CatalogTool | string, port?: number): ToolEndpointEntry {
  const t = typeof tool === 'string' ? catalogTool(tool) : tool;
  if (!t) throw new Error(`unknown tool "${String(tool)}": not in the tool catalog`);
  const p = port ?? SERVICE_REGISTRY.get(t.service)?.port;
  return { tool_name: t.name, url: `http://localhost:${p}${t.route}`, method: 'POST' };
}
