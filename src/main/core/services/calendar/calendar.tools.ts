import { p, type ToolDef } from '../tool-def';

/**
 * reference/claw-eval.md §6.5, §7.1. calendar_list_events takes `date` + `days`, as the route does:
 * the `start_date`/`end_date` variant of 12 upstream tasks is a schema/server mismatch (§7.2).
 */
export const CALENDAR_TOOLS: readonly ToolDef[] = [
  {
    name: 'calendar_list_events',
    route: '/calendar/events',
    writes: false,
    en: 'Get calendar events within a specified date range',
    zh: '获取指定日期范围内的日历事件',
    params: {
      date: p('string', 'Query date (YYYY-MM-DD)', '查询日期 (YYYY-MM-DD)'),
      days: p('integer', 'Number of days to query', '查询天数', 1),
    },
    required: ['date'],
  },
  {
    name: 'calendar_get_event',
    route: '/calendar/events/get',
    writes: false,
    en: 'Get details of a single event',
    zh: '获取单个事件详情',
    params: { event_id: p('string', 'Event ID', '事件ID') },
    required: ['event_id'],
  },
  {
    name: 'calendar_get_user_events',
    route: '/calendar/user_events',
    writes: false,
    en: 'Get calendar events for a specific user on a given date',
    zh: '获取指定用户在某一天的日历事件',
    params: {
      user: p(
        'string',
        'User name or email address (matched within the attendee list)',
        '用户姓名或邮箱（在参加者中匹配）',
      ),
      date: p('string', 'Query date (YYYY-MM-DD)', '查询日期 (YYYY-MM-DD)'),
    },
    required: ['user', 'date'],
  },
  {
    name: 'calendar_create_event',
    route: '/calendar/events/create',
    writes: true,
    en: 'Create a new calendar event',
    zh: '创建新的日历事件',
    params: {
      title: p('string', 'Event title', '事件标题'),
      start_time: p(
        'string',
        'Start time (ISO 8601 with a UTC offset, e.g. 2026-03-10T14:00:00Z)',
        '开始时间（带时区的 ISO 8601，例如 2026-03-10T14:00:00Z）',
      ),
      end_time: p('string', 'End time (ISO 8601 with a UTC offset)', '结束时间（带时区的 ISO 8601）'),
      attendees: p('array', 'List of attendee email addresses', '参加者邮箱列表', []),
      location: p('string', 'Location', '地点', ''),
    },
    required: ['title', 'start_time', 'end_time'],
  },
  {
    name: 'calendar_delete_event',
    route: '/calendar/events/delete',
    writes: true,
    en: 'Delete a calendar event',
    zh: '删除日历事件',
    params: { event_id: p('string', 'Event ID', '事件ID') },
    required: ['event_id'],
  },
];
