import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ok } from '../helpers/call';
import { CLAW_ROOT } from '../helpers/goldens';
import { createTestCore } from '../helpers/test-core';

const TASKS = path.join(CLAW_ROOT, 'tasks');
const hasCorpus = fs.existsSync(TASKS);
const clock = '2026-03-05T09:00:00Z';
const jsonl = (calls: [string, object][]) => calls.map(([tool, args]) => JSON.stringify({ tool, args })).join('\n');

type Audit = Record<string, Record<string, unknown>[]>;

/**
 * Claw-Eval's reference solutions are prose plans; these are their steps as tool calls, replayed
 * in a fresh environment of the imported task, and the audit records its grader would read.
 */
describe.skipIf(!hasCorpus)('replaying reference-solution steps yields the expected audit records', () => {
  it('T006: read the thread, save two drafts, never send (expected action gmail.drafts)', async () => {
    const { core } = createTestCore({ seedDemo: false });
    await ok(core, 'tasks.import', { paths: [path.join(TASKS, 'T006_email_reply_draft')] });
    const r = await ok(core, 'env.replay', {
      taskId: 'T006_email_reply_draft',
      clock,
      callsJsonl: jsonl([
        ['gmail_list_messages', { days_back: 30 }],
        ['gmail_get_message', { message_id: 'msg_101' }],
        ['gmail_get_message', { message_id: 'msg_104' }],
        ['gmail_get_message', { message_id: 'msg_105' }],
        [
          'gmail_save_draft',
          {
            to: 'client@bigcorp.com',
            subject: 'Re: project timeline',
            body: 'About the delay…',
            reply_to_message_id: 'msg_104',
          },
        ],
        [
          'gmail_save_draft',
          {
            to: 'boss@company.com',
            subject: 'Re: competitor analysis',
            body: 'Thanks, reviewing.',
            reply_to_message_id: 'msg_105',
          },
        ],
      ]),
    });
    expect(r.dispatches.every((d) => d.status === 200 && !d.text.includes('not found'))).toBe(true);
    const audit = JSON.parse(r.audits.gmail!) as Audit;
    expect(audit.drafts!.map((d) => [d.to, d.reply_to_message_id])).toEqual([
      ['client@bigcorp.com', 'msg_104'],
      ['boss@company.com', 'msg_105'],
    ]);
    expect(audit.drafts![0]!.timestamp).toBe('2026-03-05T09:00:00+00:00');
    expect(audit.sent_messages).toEqual([]);
    // The probe plus six tool calls, in order.
    expect(audit.calls!.map((c) => c.endpoint)).toEqual([
      '/gmail/messages',
      '/gmail/messages',
      ...Array(3).fill('/gmail/messages/get'),
      '/gmail/drafts/save',
      '/gmail/drafts/save',
    ]);
    await core.close();
  });

  it('T018: triage by updating priorities and tags, never closing (updated_tickets, no closed)', async () => {
    const { core } = createTestCore({ seedDemo: false });
    await ok(core, 'tasks.import', { paths: [path.join(TASKS, 'T018_ticket_triage')] });
    const crm = ['TK-1001', 'TK-1003', 'TK-1006'];
    const r = await ok(core, 'env.replay', {
      taskId: 'T018_ticket_triage',
      clock,
      callsJsonl: jsonl([
        ['helpdesk_list_tickets', { status: 'open' }],
        ...crm.map((id): [string, object] => [
          'helpdesk_update_ticket',
          { ticket_id: id, priority: 'urgent', tags: ['crm', 'outage'] },
        ]),
        ['helpdesk_update_ticket', { ticket_id: 'TK-1005', priority: 'high', tags: ['network'] }],
        ['helpdesk_update_ticket', { ticket_id: 'TK-1010', priority: 'low' }],
      ]),
    });
    const listed = JSON.parse(r.dispatches[0]!.body) as { total: number };
    expect(listed.total).toBe(10);
    const audit = JSON.parse(r.audits.helpdesk!) as Audit;
    expect(audit.updated_tickets!.map((t) => [t.ticket_id, t.priority])).toEqual([
      ...crm.map((id) => [id, 'urgent']),
      ['TK-1005', 'high'],
      ['TK-1010', 'low'],
    ]);
    expect(audit.updated_tickets![0]!.tags).toEqual(['crm', 'outage']);
    expect(audit.closed).toEqual([]);
    // The tickets changed in place: a later read sees the new priority.
    const after = await ok(core, 'env.replay', {
      taskId: 'T018_ticket_triage',
      clock,
      callsJsonl: jsonl([
        ['helpdesk_update_ticket', { ticket_id: 'TK-1001', priority: 'urgent' }],
        ['helpdesk_get_ticket', { ticket_id: 'TK-1001' }],
      ]),
    });
    expect(JSON.parse(after.dispatches[1]!.body)).toMatchObject({ ticket_id: 'TK-1001', priority: 'urgent' });
    await core.close();
  });
});
