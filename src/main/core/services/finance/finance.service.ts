import { z } from 'zod';
import { defineService } from '../define';
import { amount, dateText } from '../record-fields';
import { deepCopy, findBy, notFound, objects } from '../lib';
import type { PyObject } from '../../py/pyjson';
import { opt, req } from '../request-model';

/**
 * reference/claw-eval.md §6.8. Both finance_submit_report and finance_report_submit reach
 * /finance/report/submit; the latter's schema lacks the required `transactions` (→ 422, §7.2).
 */
const TransactionRecord = z.looseObject({
  transaction_id: z.string(),
  date: dateText(),
  amount: amount(),
  description: z.string(),
});

type State = { transactions: PyObject[] };

/** The `date` a bound is compared with; Python raises on a missing or non-string one (→ 500). */
const date = (t: PyObject): string => {
  const d = t.date;
  if (typeof d !== 'string') throw new TypeError('date is not a str');
  return d;
};

export const financeService = defineService<State>({
  id: 'finance',
  port: 9104,
  fixtureEnv: 'FINANCE_FIXTURES',
  defaultFixture: 'tasks/T011zh_expense_report/fixtures/finance/transactions.json',
  probe: { method: 'POST', path: '/finance/transactions' },
  actionKeys: ['submitted_reports'],
  recordSchema: TransactionRecord,
  recordKey: 'transaction_id',
  upstreamReads: ['transaction_id', 'date'],
  load: (records) => ({ transactions: objects(records) }),
  routes: {
    '/finance/transactions': {
      model: { start_date: opt('str'), end_date: opt('str') },
      noBody: 'defaults',
      handle: (r, { state }) => {
        // Plain string comparison (inclusive); null and "" bounds are falsy in Python, so ignored.
        const start = (r.start_date as string | null) || null;
        const end = (r.end_date as string | null) || null;
        const transactions = state.transactions
          .filter((t) => (start === null || date(t) >= start) && (end === null || date(t) <= end))
          .map(deepCopy);
        return { transactions, total: transactions.length };
      },
    },
    '/finance/transactions/get': {
      model: { transaction_id: req('str') },
      handle: (r, { state }) => {
        const t = findBy(state.transactions, 'transaction_id', r.transaction_id!);
        return t ? deepCopy(t) : notFound('Transaction', r.transaction_id!);
      },
    },
    '/finance/report/submit': {
      // total_amount is a float field: an integer input is echoed as e.g. 1200.0.
      model: { title: req('str'), transactions: req('list[str]'), total_amount: req('float') },
      handle: (r, ctx) => {
        const report = {
          title: r.title!,
          transactions: r.transactions!,
          total_amount: r.total_amount!,
          timestamp: ctx.timestamp(),
        };
        ctx.record('submitted_reports', report);
        return { status: 'submitted', report };
      },
    },
  },
});
