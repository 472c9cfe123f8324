import { z } from 'zod';
import { defineService } from '../define';
import { email } from '../record-fields';
import { deepCopy, findBy, notFound, objects } from '../lib';
import { isObject, pyEquals, type PyObject, type PyValue } from '../../py/pyjson';
import { opt, req } from '../request-model';

/**
 * reference/claw-eval.md §6.7. `query` is required, so the body-less health probe answers 422
 * and is not logged (unlike most mocks, Q4).
 */
const ContactRecord = z.looseObject({
  contact_id: z.string(),
  name: z.string(),
  department: z.string(),
  title: z.string(),
  email: email(),
  phone: z.string(),
});

type State = { contacts: PyObject[] };

/**
 * Python `needle in haystack`: a case-sensitive substring test on strings ("" is in everything),
 * membership on lists and dict keys; anything else (or a missing field) raises upstream → 500.
 */
const contains = (haystack: PyValue | undefined, needle: string) => {
  if (typeof haystack === 'string') return haystack.includes(needle);
  if (Array.isArray(haystack)) return haystack.some((x) => pyEquals(x, needle));
  if (isObject(haystack)) return needle in haystack;
  throw new TypeError('argument is not iterable');
};

export const contactsService = defineService<State>({
  id: 'contacts',
  port: 9103,
  fixtureEnv: 'CONTACTS_FIXTURES',
  defaultFixture: 'tasks/T009zh_contact_lookup/fixtures/contacts/contacts.json',
  probe: { method: 'POST', path: '/contacts/search' },
  actionKeys: ['sent_messages'],
  recordSchema: ContactRecord,
  recordKey: 'contact_id',
  upstreamReads: ['contact_id', 'name', 'department'],
  load: (records) => ({ contacts: objects(records) }),
  routes: {
    '/contacts/search': {
      model: { query: req('str'), department: opt('str') },
      handle: (r, { state }) => {
        const q = r.query as string;
        const dept = r.department as string | null;
        // Only `name` is searched, so titles like "Director" never match; `department: ""` matches all.
        const contacts = state.contacts
          .filter((c) => contains(c.name, q) && (dept === null || contains(c.department, dept)))
          .map(deepCopy);
        return { contacts, total: contacts.length };
      },
    },
    '/contacts/get': {
      model: { contact_id: req('str') },
      handle: (r, { state }) => {
        const c = findBy(state.contacts, 'contact_id', r.contact_id!);
        return c ? deepCopy(c) : notFound('Contact', r.contact_id!);
      },
    },
    '/contacts/send_message': {
      model: { contact_id: req('str'), message: req('str') },
      handle: (r, ctx) => {
        // The contact id is never checked (writers never validate referenced ids).
        const record = { contact_id: r.contact_id!, message: r.message!, timestamp: ctx.timestamp() };
        ctx.record('sent_messages', record);
        return { status: 'sent', record };
      },
    },
  },
});
