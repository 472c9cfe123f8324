import { p, type ToolDef } from '../tool-def';

/** reference/claw-eval.md §6.7, §7.1 (contacts_search on its own port; T075's :9100 route does not exist). */
export const CONTACTS_TOOLS: readonly ToolDef[] = [
  {
    name: 'contacts_search',
    route: '/contacts/search',
    writes: false,
    en: 'Search for contacts by name (case-sensitive substring of the name)',
    zh: '按名字搜索联系人（姓名子串匹配）',
    params: {
      query: p('string', 'Search keyword (name)', '搜索关键词（姓名）'),
      department: p('string', 'Filter by department', '按部门筛选'),
    },
    required: ['query'],
  },
  {
    name: 'contacts_get',
    route: '/contacts/get',
    writes: false,
    en: 'Get detailed contact information by ID',
    zh: '根据ID获取联系人详细信息',
    params: { contact_id: p('string', 'Contact ID', '联系人ID') },
    required: ['contact_id'],
  },
  {
    name: 'contacts_send_message',
    route: '/contacts/send_message',
    writes: true,
    en: 'Send a message to a contact',
    zh: '给联系人发送消息',
    params: {
      contact_id: p('string', 'Contact ID', '联系人ID'),
      message: p('string', 'Message content', '消息内容'),
    },
    required: ['contact_id', 'message'],
  },
];
