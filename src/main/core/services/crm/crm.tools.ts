import { p, type ToolDef } from '../tool-def';

/** reference/claw-eval.md §6.14, §7.1. */
export const CRM_TOOLS: readonly ToolDef[] = [
  {
    name: 'crm_list_customers',
    route: '/crm/customers',
    writes: false,
    en: 'Get the CRM customer list, filterable by status, tier, or industry',
    zh: '获取CRM客户列表，可按状态、等级、行业筛选',
    params: {
      status: p('string', 'Filter by customer status (exact match)', '按客户状态筛选（精确匹配）'),
      tier: p('string', 'Filter by customer tier (exact match)', '按客户等级筛选（精确匹配）'),
      industry: p('string', 'Filter by industry (exact match)', '按行业筛选（精确匹配）'),
    },
    required: [],
  },
  {
    name: 'crm_get_customer',
    route: '/crm/customers/get',
    writes: false,
    en: 'Get full details for a single customer',
    zh: '获取单个客户的完整详细信息',
    params: { customer_id: p('string', 'Customer ID', '客户ID') },
    required: ['customer_id'],
  },
  {
    name: 'crm_export_report',
    route: '/crm/export',
    writes: true,
    en: 'Export a customer summary report',
    zh: '导出客户汇总报告',
    params: {
      title: p('string', 'Report title', '报告标题'),
      customer_ids: p('array', 'List of customer IDs to include', '要包含的客户ID列表'),
      summary: p('string', 'Report summary content', '报告摘要内容'),
    },
    required: ['title', 'customer_ids', 'summary'],
  },
];
