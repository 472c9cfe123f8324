import { p, type ToolDef } from '../tool-def';

/** reference/claw-eval.md §6.4, §7.1. */
export const GMAIL_TOOLS: readonly ToolDef[] = [
  {
    name: 'gmail_list_messages',
    route: '/gmail/messages',
    writes: false,
    en: 'Get the list of messages in the inbox',
    zh: '获取收件箱中的邮件列表',
    params: {
      days_back: p('integer', 'Number of recent days to fetch emails from', '获取最近几天的邮件', 7),
      max_results: p('integer', 'Maximum number of results to return', '最大返回数量', 20),
    },
    required: [],
  },
  {
    name: 'gmail_get_message',
    route: '/gmail/messages/get',
    writes: false,
    en: 'Get the detailed content of an email by its message ID',
    zh: '根据邮件ID获取邮件详细内容',
    params: { message_id: p('string', 'Message ID', '邮件ID') },
    required: ['message_id'],
  },
  {
    name: 'gmail_send_message',
    route: '/gmail/send',
    writes: true,
    en: 'Send an email',
    zh: '发送邮件',
    params: {
      to: p('string', 'Recipient email address', '收件人邮箱地址'),
      subject: p('string', 'Email subject', '邮件主题'),
      body: p('string', 'Email body', '邮件正文'),
    },
    required: ['to', 'subject', 'body'],
  },
  {
    name: 'gmail_save_draft',
    route: '/gmail/drafts/save',
    writes: true,
    en: 'Save an email as a draft',
    zh: '将邮件保存为草稿',
    params: {
      to: p('string', 'Recipient email address', '收件人邮箱地址'),
      subject: p('string', 'Email subject', '邮件主题'),
      body: p('string', 'Email body', '邮件正文'),
      reply_to_message_id: p('string', 'Original message ID if this is a reply', '如果是回复邮件，原邮件ID'),
    },
    required: ['to', 'subject', 'body'],
  },
];
