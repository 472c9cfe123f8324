import { p, type ToolDef } from '../tool-def';

/** reference/claw-eval.md §6.11, §7.1. The list filters by status only; update takes no `assigned_to` (§7.2). */
export const HELPDESK_TOOLS: readonly ToolDef[] = [
  {
    name: 'helpdesk_list_tickets',
    route: '/helpdesk/tickets',
    writes: false,
    en: 'Get the list of tickets',
    zh: '获取工单列表',
    params: {
      status: p('string', 'Filter by ticket status (open/closed/all)', '工单状态筛选 (open/closed/all)', 'open'),
    },
    required: [],
  },
  {
    name: 'helpdesk_get_ticket',
    route: '/helpdesk/tickets/get',
    writes: false,
    en: 'Get ticket details',
    zh: '获取工单详情',
    params: { ticket_id: p('string', 'Ticket ID', '工单ID') },
    required: ['ticket_id'],
  },
  {
    name: 'helpdesk_update_ticket',
    route: '/helpdesk/tickets/update',
    writes: true,
    en: 'Update ticket information',
    zh: '更新工单信息',
    params: {
      ticket_id: p('string', 'Ticket ID', '工单ID'),
      priority: p('string', 'Priority level (urgent/high/medium/low)', '优先级 (urgent/high/medium/low)'),
      tags: p('array', 'List of tags', '标签列表'),
      category: p('string', 'Category', '分类'),
    },
    required: ['ticket_id'],
  },
  {
    name: 'helpdesk_close_ticket',
    route: '/helpdesk/tickets/close',
    writes: true,
    en: 'Close a ticket',
    zh: '关闭工单',
    params: {
      ticket_id: p('string', 'Ticket ID', '工单ID'),
      resolution: p('string', 'Resolution description', '解决方案描述'),
    },
    required: ['ticket_id', 'resolution'],
  },
];
