import { p, type ToolDef } from '../tool-def';

/**
 * reference/claw-eval.md §6.8, §7.1. Only finance_submit_report: finance_report_submit's schema
 * (title, content, report_type, total_amount) lacks the route's required `transactions` (§7.2).
 */
export const FINANCE_TOOLS: readonly ToolDef[] = [
  {
    name: 'finance_list_transactions',
    route: '/finance/transactions',
    writes: false,
    en: 'Get the list of transactions, optionally within a date range (inclusive)',
    zh: '获取交易记录列表，可按日期范围（含首尾）筛选',
    params: {
      start_date: p('string', 'Start date (YYYY-MM-DD)', '开始日期 (YYYY-MM-DD)'),
      end_date: p('string', 'End date (YYYY-MM-DD)', '结束日期 (YYYY-MM-DD)'),
    },
    required: [],
  },
  {
    name: 'finance_get_transaction',
    route: '/finance/transactions/get',
    writes: false,
    en: 'Get details of a single transaction',
    zh: '获取单笔交易详情',
    params: { transaction_id: p('string', 'Transaction ID', '交易ID') },
    required: ['transaction_id'],
  },
  {
    name: 'finance_submit_report',
    route: '/finance/report/submit',
    writes: true,
    en: 'Submit an expense or payment report',
    zh: '提交费用或付款报告',
    params: {
      title: p('string', 'Report title', '报告标题'),
      transactions: p('array', 'List of transaction IDs to include', '包含的交易ID列表'),
      total_amount: p('number', 'Total amount', '总金额'),
    },
    required: ['title', 'transactions', 'total_amount'],
  },
];
