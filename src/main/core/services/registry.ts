import { calendarService } from './calendar/calendar.service';
import { configService } from './config/config.service';
import { contactsService } from './contacts/contacts.service';
import { crmService } from './crm/crm.service';
import { financeService } from './finance/finance.service';
import { gmailService } from './gmail/gmail.service';
import { helpdeskService } from './helpdesk/helpdesk.service';
import { inventoryService } from './inventory/inventory.service';
import { kbService } from './kb/kb.service';
import { notesService } from './notes/notes.service';
import { rssService } from './rss/rss.service';
import { schedulerService } from './scheduler/scheduler.service';
import { todoService } from './todo/todo.service';
import { webService } from './web/web.service';
import type { ServiceDefinition } from './define';

/**
 * The explicit list of mock services, in Claw-Eval's registry order (reference/claw-eval.md §6.1).
 * Adding one: a folder `services/<id>/` exporting its definition (see services/README.md), then one line here.
 */
// biome-ignore lint/suspicious/noExplicitAny: each service has its own state type
const SERVICES: ServiceDefinition<any>[] = [
  gmailService,
  calendarService,
  todoService,
  contactsService,
  financeService,
  notesService,
  kbService,
  helpdeskService,
  inventoryService,
  rssService,
  crmService,
  configService,
  schedulerService,
  webService,
];

export const SERVICE_REGISTRY = new Map<string, ServiceDefinition>(SERVICES.map((s) => [s.id, s as ServiceDefinition]));

/**
 * The task service a tool endpoint on `port` reaches, as the Environment routes it (declared port, else the
 * registry's).
 */
export function serviceOnPort<S extends { name: string; port?: number | undefined }>(
  services: readonly S[],
  port: number,
): S | undefined {
  return services.find((s) => (s.port ?? SERVICE_REGISTRY.get(s.name)?.port) === port);
}
