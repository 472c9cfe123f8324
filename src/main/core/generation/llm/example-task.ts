/**
 * The worked example shown to the model: a complete task in the answer format the generator asks
 * for (tools named only — their schemas and routes are filled in from the tool catalog; no
 * tool_endpoints). test/generation/llm-generate.test.ts checks that it passes every validator
 * once normalised, so the model is never shown an example the validators would reject.
 */
export const EXAMPLE_ANSWER = {
  task_name: 'Escalate the VPN outage and draft a reply',
  category: 'operations',
  difficulty: 'medium',
  language: 'en',
  reference_date: '2026-04-10',
  scenario: 'cross_service',
  prompt: {
    text:
      'A customer e-mailed about the VPN outage. Raise the matching ticket to high priority, draft (do not ' +
      'send) a reply saying we are on it, and tell me which ticket you changed.',
    language: 'en',
  },
  services: [
    {
      name: 'gmail',
      records: [
        {
          message_id: 'msg_101',
          from: 'dana@example.com',
          to: 'support@example.com',
          subject: 'VPN down since 8am',
          body: 'None of us can connect to the VPN.',
          date: '2026-04-10T07:30:00Z',
          labels: ['inbox'],
          is_read: false,
        },
        {
          message_id: 'msg_102',
          from: 'news@example.com',
          to: 'support@example.com',
          subject: 'Weekly digest',
          body: 'Ten tips for spring.',
          date: '2026-04-09T10:00:00Z',
          labels: ['inbox'],
          is_read: true,
        },
      ],
    },
    {
      name: 'helpdesk',
      records: [
        {
          ticket_id: 'TK-3001',
          title: 'VPN outage',
          description: 'Remote staff cannot connect.',
          reporter: 'Dana Kim',
          department: 'Sales',
          priority: 'low',
          status: 'open',
          created_at: '2026-04-10T07:45:00Z',
        },
        {
          ticket_id: 'TK-3002',
          title: 'Printer jam',
          description: 'Third floor printer.',
          reporter: 'Omar Ali',
          department: 'Finance',
          priority: 'low',
          status: 'open',
          created_at: '2026-04-09T12:00:00Z',
        },
      ],
    },
  ],
  tools: [
    'gmail_list_messages',
    'gmail_get_message',
    'gmail_save_draft',
    'gmail_send_message',
    'helpdesk_list_tickets',
    'helpdesk_update_ticket',
  ],
  checks: [
    {
      id: 'read_mail',
      kind: 'tool_called',
      weight: 0.15,
      tool: 'gmail_get_message',
      args: { message_id: { equals: 'msg_101' } },
    },
    {
      id: 'ticket_high',
      kind: 'audit',
      weight: 0.35,
      service: 'helpdesk',
      action_key: 'updated_tickets',
      fields: { ticket_id: { equals: 'TK-3001' }, priority: { one_of: ['high', 'urgent'], case_insensitive: true } },
    },
    {
      id: 'reply_drafted',
      kind: 'audit',
      weight: 0.3,
      service: 'gmail',
      action_key: 'drafts',
      fields: { to: { equals: 'dana@example.com' } },
    },
    { id: 'reported', kind: 'final_text', weight: 0.2, contains_all: ['TK-3001'] },
  ],
  prohibited: [
    { kind: 'tool', tool: 'gmail_send_message', description: 'the user asked for a draft only' },
    {
      kind: 'audit',
      service: 'helpdesk',
      action_key: 'updated_tickets',
      fields: { ticket_id: { equals: 'TK-3002' } },
      description: 'the printer ticket is unrelated',
    },
  ],
  reference_plan: [
    { tool: 'gmail_list_messages', args: { days_back: 2 } },
    { tool: 'gmail_get_message', args: { message_id: 'msg_101' } },
    { tool: 'helpdesk_list_tickets', args: { status: 'open' } },
    { tool: 'helpdesk_update_ticket', args: { ticket_id: 'TK-3001', priority: 'high' } },
    {
      tool: 'gmail_save_draft',
      args: {
        to: 'dana@example.com',
        subject: 'Re: VPN down since 8am',
        body: 'We are on it and will update you within the hour.',
        reply_to_message_id: 'msg_101',
      },
    },
  ],
  reference_final_text: 'I raised TK-3001 (VPN outage) to high priority and drafted a reply to Dana; nothing was sent.',
} as const;
