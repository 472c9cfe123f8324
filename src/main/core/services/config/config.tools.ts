import { p, type ToolDef } from '../tool-def';

/** reference/claw-eval.md §6.15, §7.1. The list filters by status only (a `type` filter is ignored upstream). */
export const CONFIG_TOOLS: readonly ToolDef[] = [
  {
    name: 'config_list_integrations',
    route: '/config/integrations',
    writes: false,
    en: 'Get a list of all third-party integrations (overview)',
    zh: '获取所有第三方集成的列表（概览信息）',
    params: {
      status: p(
        'string',
        'Filter by status (e.g. active, degraded, expired)',
        '按状态筛选（如 active, degraded, expired）',
      ),
    },
    required: [],
  },
  {
    name: 'config_get_integration',
    route: '/config/integrations/get',
    writes: false,
    en: 'Get the full configuration of a single integration (includes sensitive credentials)',
    zh: '获取单个集成的完整配置信息（含敏感凭证）',
    params: { integration_id: p('string', 'Integration ID', '集成ID') },
    required: ['integration_id'],
  },
  {
    name: 'config_update_integration',
    route: '/config/integrations/update',
    writes: true,
    en: "Update an integration's status or notes",
    zh: '更新集成的状态或备注',
    params: {
      integration_id: p('string', 'Integration ID', '集成ID'),
      status: p('string', 'New status', '新状态'),
      notes: p('string', 'Notes', '备注'),
    },
    required: ['integration_id'],
  },
  {
    name: 'config_send_notification',
    route: '/config/notify',
    writes: true,
    en: 'Send a notification email to a team member',
    zh: '发送通知邮件给团队成员',
    params: {
      to: p('string', 'Recipient email address', '收件人邮箱'),
      subject: p('string', 'Email subject', '邮件主题'),
      body: p('string', 'Email body', '邮件正文'),
    },
    required: ['to', 'subject', 'body'],
  },
];
