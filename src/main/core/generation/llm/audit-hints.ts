/**
 * What each write route leaves in its service's audit (read from the services' handlers): the
 * action key an `audit` check or prohibited rule names, and the fields its record holds. A model
 * writing checks needs both; test/generation/llm-prompt.test.ts keeps this table in step with the
 * tool catalog and the services' action keys. A write route missing here leaves no audit record
 * (check it with tool_called).
 */
export const AUDIT_HINTS: Readonly<Record<string, { key: string; holds: string }>> = {
  '/gmail/send': { key: 'sent_messages', holds: '{to, subject, body, timestamp}' },
  '/gmail/drafts/save': { key: 'drafts', holds: '{to, subject, body, reply_to_message_id, timestamp}' },
  '/calendar/events/create': {
    key: 'created_events',
    holds: '{event_id, title, start_time, end_time, attendees, location, recurring}',
  },
  '/calendar/events/delete': { key: 'deleted', holds: 'the deleted event record' },
  '/todo/tasks/update': { key: 'updated_tasks', holds: 'the task record after the update' },
  '/todo/tasks/delete': { key: 'deleted', holds: 'the deleted task record' },
  '/contacts/send_message': { key: 'sent_messages', holds: '{contact_id, message, timestamp}' },
  '/finance/report/submit': { key: 'submitted_reports', holds: '{title, transactions, total_amount, timestamp}' },
  '/notes/share': { key: 'shared', holds: '{note_id, recipients, timestamp}' },
  '/kb/articles/update': { key: 'updates', holds: '{article_id, timestamp}' },
  '/helpdesk/tickets/update': { key: 'updated_tickets', holds: 'the ticket record after the update' },
  '/helpdesk/tickets/close': { key: 'closed', holds: 'the ticket record, status "closed", with its resolution' },
  '/inventory/orders/create': { key: 'orders', holds: '{product_id, quantity, supplier, timestamp}' },
  '/rss/publish': { key: 'published', holds: '{title, content, recipients, timestamp}' },
  '/crm/export': { key: 'exported_reports', holds: '{title, customer_ids, summary, timestamp}' },
  '/config/integrations/update': {
    key: 'updates',
    holds: '{integration_id, changes: {the request fields given}, timestamp}',
  },
  '/config/notify': { key: 'notifications', holds: '{to, subject, body, timestamp}' },
  '/scheduler/jobs/create': { key: 'created_jobs', holds: 'the new job record' },
  '/scheduler/jobs/update': { key: 'updated_jobs', holds: 'the job record after the update' },
  '/scheduler/jobs/delete': { key: 'deleted_jobs', holds: 'the deleted job record' },
};
