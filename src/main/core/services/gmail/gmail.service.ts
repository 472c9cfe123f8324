import { z } from 'zod';
import { defineService } from '../define';
import { dateText, email } from '../record-fields';
import { deepCopy, notFound, objects, project, pySlice } from '../lib';
import type { PyObject } from '../../py/pyjson';
import { opt, req } from '../request-model';
import { parseStamp } from '../../py/pytime/isoformat';
import { DAY, field, fromDate, instant, plus, strftimeZ, timedeltaDays } from '../../py/pytime/pydatetime';

/** reference/claw-eval.md §6.4. */
const MailRecord = z.looseObject({
  message_id: z.string(),
  from: email(),
  to: email(),
  subject: z.string(),
  body: z.string(),
  date: dateText(),
  labels: z.array(z.string()),
  is_read: z.boolean(),
});

type State = { emails: PyObject[] };
const SUMMARY = ['message_id', 'from', 'subject', 'date', 'is_read', 'labels'] as const;

/**
 * At load and reset: every date moves by one delta so the newest mail lands one day before now
 * (Q3). Each is printed in its own offset with a literal Z, so +08:00 mail reads 8 h later than
 * it is, and the list filter then takes that text as UTC. A naive date fails upstream's start-up.
 */
export function shiftMailDates(emails: PyObject[], now: Date): void {
  if (!emails.length) return;
  const dates = emails.map((e) => instant(parseStamp(field(e, 'date'))));
  // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.max does not take
  const newest = dates.reduce((a, b) => (b > a ? b : a));
  const delta = instant(fromDate(now)) - DAY - newest;
  for (const e of emails) e.date = strftimeZ(plus(parseStamp(e.date!), delta));
}

export const gmailService = defineService<State>({
  id: 'gmail',
  port: 9100,
  fixtureEnv: 'GMAIL_FIXTURES',
  defaultFixture: 'tasks/T001zh_email_triage/fixtures/gmail/inbox.json',
  probe: { method: 'POST', path: '/gmail/messages' },
  actionKeys: ['sent_messages', 'drafts'],
  recordSchema: MailRecord,
  recordKey: 'message_id',
  upstreamReads: ['message_id', 'from', 'subject', 'date', 'is_read', 'labels'],
  parsedAtLoad: ['date'],
  load: (records, now) => {
    const emails = objects(records);
    shiftMailDates(emails, now);
    return { emails };
  },
  routes: {
    '/gmail/messages': {
      model: { days_back: opt('int', 7), max_results: opt('int', 20) },
      noBody: 'defaults',
      handle: (r, { state, now }) => {
        // A days_back reaching before year 1 (or a negative one past 9999) overflows: 500.
        const cutoff = instant(plus(fromDate(now()), -timedeltaDays(r.days_back as number)));
        const kept = state.emails
          .filter((e) => instant(parseStamp(field(e, 'date'))) >= cutoff)
          .map((e) => project(e, SUMMARY));
        const messages = pySlice(kept, r.max_results as number);
        return { messages, total: messages.length };
      },
    },
    '/gmail/messages/get': {
      model: { message_id: req('str') },
      handle: (r, { state }) => {
        const m = state.emails.find((e) => field(e, 'message_id') === r.message_id);
        // Reading does not mark the mail read.
        return m ? deepCopy(m) : notFound('Message', r.message_id!);
      },
    },
    '/gmail/send': {
      model: { to: req('str'), subject: req('str'), body: req('str') },
      handle: (r, ctx) => {
        const message = { to: r.to!, subject: r.subject!, body: r.body!, timestamp: ctx.timestamp() };
        ctx.record('sent_messages', message);
        return { status: 'sent', message };
      },
    },
    '/gmail/drafts/save': {
      model: { to: req('str'), subject: req('str'), body: req('str'), reply_to_message_id: opt('str', null) },
      handle: (r, ctx) => {
        const draft = {
          to: r.to!,
          subject: r.subject!,
          body: r.body!,
          reply_to_message_id: r.reply_to_message_id!,
          timestamp: ctx.timestamp(),
        };
        ctx.record('drafts', draft);
        return { status: 'draft_saved', draft };
      },
    },
  },
});
