import type { ServiceId } from '../../../../../shared/contract/entities/slot';
import { calendarKit } from './calendar.kit';
import { configKit } from './config.kit';
import { contactsKit } from './contacts.kit';
import { crmKit } from './crm.kit';
import { financeKit } from './finance.kit';
import { gmailKit } from './gmail.kit';
import { helpdeskKit } from './helpdesk.kit';
import { inventoryKit } from './inventory.kit';
import { kbKit } from './kb.kit';
import type { Kit } from './kit';
import { notesKit } from './notes.kit';
import { rssKit } from './rss.kit';
import { schedulerKit } from './scheduler.kit';
import { todoKit } from './todo.kit';

/** Every service's kit, in the catalog's service order. */
export const KITS: Record<ServiceId, Kit> = {
  gmail: gmailKit,
  calendar: calendarKit,
  todo: todoKit,
  contacts: contactsKit,
  finance: financeKit,
  notes: notesKit,
  kb: kbKit,
  helpdesk: helpdeskKit,
  inventory: inventoryKit,
  rss: rssKit,
  crm: crmKit,
  config: configKit,
  scheduler: schedulerKit,
};
