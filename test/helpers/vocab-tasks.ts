import fs from 'node:fs';
import path from 'node:path';

/**
 * Two small Claw-Eval tasks written inline, altered the way upstream's T113–T156 family is: a calendar event whose
 * organizer is a name ("王明", T113zh) and a CRM supplier whose tier is "core" and status "suspended" (T151zh).
 * Upstream serves both (its mocks load fixtures as plain JSON); our record vocabularies do not include these values.
 * Inline rather than copied from ../shared, so the tests that use them run in a bare clone too.
 */
export const VOCAB_TASKS = {
  calendar: 'T113zh_vocab_calendar',
  crm: 'T151zh_vocab_crm',
  /** writeBrokenTask: a calendar event without start_time, which upstream's calendar cannot start with. */
  broken: 'T900_vocab_broken',
} as const;

const tool = (name: string, props: Record<string, string>) => ({
  name,
  description: name,
  input_schema: {
    type: 'object',
    properties: Object.fromEntries(Object.keys(props).map((k) => [k, { type: 'string' }])),
    required: Object.keys(props).filter((k) => props[k] === 'req'),
  },
});

function writeTask(
  root: string,
  id: string,
  svc: { name: string; port: number; env: string; file: string },
  body: {
    tools: { name: string; route: string; props: Record<string, string> }[];
    records: unknown[];
  },
): void {
  const dir = path.join(root, 'tasks', id);
  const rel = `tasks/${id}/fixtures/${svc.name}/${svc.file}`;
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), JSON.stringify(body.records, null, 2));
  // JSON is YAML: the task.yaml is written as JSON so no YAML quoting can go wrong.
  const yaml = {
    task_id: id,
    task_name: id,
    prompt: { text: `Look at the ${svc.name} data and summarise it.`, language: 'zh' },
    tags: ['general'],
    services: [
      {
        name: svc.name,
        port: svc.port,
        health_check: `http://localhost:${svc.port}/${svc.name === 'crm' ? 'crm/customers' : 'calendar/events'}`,
        env: { [svc.env]: rel },
      },
    ],
    tools: body.tools.map((t) => tool(t.name, t.props)),
    tool_endpoints: body.tools.map((t) => ({ tool_name: t.name, url: `http://localhost:${svc.port}${t.route}` })),
    scoring_components: [{ name: 'summary', weight: 1, check: { type: 'llm_judge', rubric: 'A useful summary.' } }],
  };
  fs.writeFileSync(path.join(dir, 'task.yaml'), JSON.stringify(yaml, null, 2));
}

/** Writes both tasks under `root`/tasks (a Claw-Eval root) and answers `root`. */
export function writeVocabTasks(root: string): string {
  writeTask(
    root,
    VOCAB_TASKS.calendar,
    { name: 'calendar', port: 9101, env: 'CALENDAR_FIXTURES', file: 'events.json' },
    {
      tools: [
        { name: 'calendar_get_event', route: '/calendar/events/get', props: { event_id: 'req' } },
        { name: 'calendar_get_user_events', route: '/calendar/user_events', props: { user: 'req', date: 'req' } },
      ],
      records: [
        {
          event_id: 'evt_201',
          title: '产品方案评审',
          start_time: '2026-03-27T09:00:00+08:00',
          end_time: '2026-03-27T10:30:00+08:00',
          location: '会议室A',
          organizer: '王明',
          attendees: ['王明', '李华', '赵蕾'],
          status: 'confirmed',
        },
        {
          event_id: 'evt_202',
          title: '周会',
          start_time: '2026-03-27T14:00:00+08:00',
          end_time: '2026-03-27T15:00:00+08:00',
          location: '会议室B',
          organizer: 'li.hua@company.com',
          attendees: ['李华'],
        },
      ],
    },
  );
  writeTask(
    root,
    VOCAB_TASKS.crm,
    { name: 'crm', port: 9110, env: 'CRM_FIXTURES', file: 'customers.json' },
    {
      tools: [
        { name: 'crm_list_customers', route: '/crm/customers', props: { tier: 'opt', status: 'opt' } },
        { name: 'crm_get_customer', route: '/crm/customers/get', props: { customer_id: 'req' } },
      ],
      records: [
        {
          customer_id: 'CUS-001',
          name: 'CloudCreate Tech',
          contact_person: 'Ming Wang',
          industry: 'Technology',
          tier: 'VIP',
          annual_revenue: 5200000,
          status: 'active',
        },
        {
          customer_id: 'SUP-1001',
          name: '华通科技',
          type: 'supplier',
          contact_person: '王总',
          email: 'wang@huatong-tech.com',
          industry: '网络设备制造',
          tier: 'core',
          annual_revenue: 0,
          status: 'suspended',
        },
      ],
    },
  );
  return root;
}

/** A third task upstream itself could not serve (its calendar reads e["start_time"] of every event at start-up). */
export function writeBrokenTask(root: string): string {
  writeTask(
    root,
    VOCAB_TASKS.broken,
    { name: 'calendar', port: 9101, env: 'CALENDAR_FIXTURES', file: 'events.json' },
    {
      tools: [{ name: 'calendar_get_event', route: '/calendar/events/get', props: { event_id: 'req' } }],
      records: [{ event_id: 'evt_901', title: 'No start', end_time: '2026-03-27T10:30:00+08:00', attendees: [] }],
    },
  );
  return root;
}
