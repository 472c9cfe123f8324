import { z } from 'zod';
import { defineService } from '../define';
import { dateText, oneOf } from '../record-fields';
import { deepCopy, findBy, notFound, objects, project } from '../lib';
import type { PyObject } from '../../py/pyjson';
import { opt, req } from '../request-model';

/**
 * reference/claw-eval.md §6.11. The list route ignores the category/priority/date filters some
 * task schemas expose, and update drops `assigned_to` (unknown body keys are discarded).
 */
const TicketRecord = z.looseObject({
  ticket_id: z.string(),
  title: z.string(),
  description: z.string(),
  reporter: z.string(),
  department: z.string(),
  // Upstream has a ticket with an empty priority; '' is kept as a value.
  priority: oneOf(['', 'low', 'medium', 'high', 'critical', 'urgent']),
  status: oneOf(['open', 'in_progress', 'investigating', 'pending', 'resolved', 'done', 'closed']),
  created_at: dateText(),
});

type State = { tickets: PyObject[] };
const SUMMARY = ['ticket_id', 'title', 'reporter', 'department', 'priority', 'status', 'created_at'] as const;

export const helpdeskService = defineService<State>({
  id: 'helpdesk',
  port: 9107,
  fixtureEnv: 'HELPDESK_FIXTURES',
  defaultFixture: 'tasks/T017zh_ticket_triage/fixtures/helpdesk/tickets.json',
  probe: { method: 'POST', path: '/helpdesk/tickets' },
  actionKeys: ['closed', 'updated_tickets'],
  recordSchema: TicketRecord,
  recordKey: 'ticket_id',
  upstreamReads: ['ticket_id', 'title', 'reporter', 'department', 'priority', 'status', 'created_at'],
  load: (records) => ({ tickets: objects(records) }),
  routes: {
    '/helpdesk/tickets': {
      // `status` is a plain str (not Optional): an explicit null is a 422, and "" filters exactly.
      model: { status: opt('str', 'open') },
      noBody: 'defaults',
      handle: (r, { state }) => {
        const tickets = state.tickets
          .filter((t) => r.status === 'all' || t.status === r.status)
          .map((t) => project(t, SUMMARY));
        return { tickets, total: tickets.length };
      },
    },
    '/helpdesk/tickets/get': {
      model: { ticket_id: req('str') },
      handle: (r, { state }) => {
        const t = findBy(state.tickets, 'ticket_id', r.ticket_id!);
        return t ? deepCopy(t) : notFound('Ticket', r.ticket_id!);
      },
    },
    '/helpdesk/tickets/update': {
      model: { ticket_id: req('str'), priority: opt('str'), tags: opt('list[str]'), category: opt('str') },
      handle: (r, ctx) => {
        const t = findBy(ctx.state.tickets, 'ticket_id', r.ticket_id!);
        if (!t) return notFound('Ticket', r.ticket_id!);
        // null means "unchanged"; an empty string or list is a real value and is written.
        for (const k of ['priority', 'tags', 'category'] as const) if (r[k] !== null) t[k] = deepCopy(r[k]!);
        // Every update is logged, duplicates included (even one that changed nothing).
        ctx.record('updated_tickets', deepCopy(t));
        return { status: 'updated', ticket: deepCopy(t) };
      },
    },
    '/helpdesk/tickets/close': {
      model: { ticket_id: req('str'), resolution: req('str') },
      handle: (r, ctx) => {
        const t = findBy(ctx.state.tickets, 'ticket_id', r.ticket_id!);
        if (!t) return notFound('Ticket', r.ticket_id!);
        t.status = 'closed';
        t.resolution = r.resolution!;
        ctx.record('closed', deepCopy(t));
        return { status: 'closed', ticket: deepCopy(t) };
      },
    },
  },
});
