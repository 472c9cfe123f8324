import type { Route } from './define';
import { deepCopy, findBy, notFound } from './lib';
import { isObject, type PyObject, type PyValue } from '../py/pyjson';
import { req } from './request-model';

/**
 * Fixed mode (reference/claw-eval.md §1.4): an opt-in per environment that repairs upstream's
 * broken routes and schema/server mismatches. Never silent: every repaired dispatch carries the
 * switch that changed it, and results made under it are flagged non-parity.
 */
export const FIXED_SWITCHES = {
  'todo-get-route': 'todo_get_task → /todo/tasks/get exists (upstream: 404)',
  'rss-feed-route': 'rss_get_feed → /rss/feeds/get exists (upstream: 404)',
  'contacts-search-port':
    'contacts_search mapped to :9100/gmail/contacts/search reaches the contacts service (T075; upstream: 404)',
  'calendar-date-range': 'calendar_list_events given start_date/end_date (no date) lists that range (upstream: 422)',
  'finance-report-transactions': 'finance_report_submit without transactions submits an empty list (upstream: 422)',
} as const;
export type FixedSwitch = keyof typeof FIXED_SWITCHES;

type ListState = { tasks?: PyObject[]; articles?: PyObject[] };

/** Routes that exist only in fixed mode, by service. */
export const FIXED_ROUTES: Record<string, Record<string, { switch: FixedSwitch; route: Route<ListState> }>> = {
  todo: {
    '/todo/tasks/get': {
      switch: 'todo-get-route',
      route: {
        model: { task_id: req('str') },
        handle: (r, { state }) => {
          const t = findBy(state.tasks ?? [], 'task_id', r.task_id!);
          return t ? deepCopy(t) : notFound('Task', r.task_id!);
        },
      },
    },
  },
  rss: {
    '/rss/feeds/get': {
      switch: 'rss-feed-route',
      route: {
        // Task schemas name the feed; upstream's feeds are keyed by `source`.
        model: {
          source: { type: 'str', nullable: true, default: null },
          feed_name: { type: 'str', nullable: true, default: null },
          feed_id: { type: 'str', nullable: true, default: null },
        },
        handle: (r, { state }) => {
          const name = (r.source ?? r.feed_name ?? r.feed_id) as string | null;
          const articles = (state.articles ?? []).filter((a) => a.source === name);
          if (!name || !articles.length) return notFound('Feed', name);
          const categories: string[] = [];
          for (const a of articles)
            if (typeof a.category === 'string' && !categories.includes(a.category)) categories.push(a.category);
          return { source: name, categories, article_count: articles.length };
        },
      },
    },
  },
};

const DAY_MS = 86_400_000;

/** Argument and routing repairs applied before dispatch; answers what changed and why. */
export function repairCall(
  tool: string,
  path: string,
  args: PyValue,
  hasService: (id: string) => boolean,
): { service?: string; path: string; args: PyValue; switch?: FixedSwitch } {
  if (tool === 'contacts_search' && path === '/gmail/contacts/search' && hasService('contacts')) {
    return { service: 'contacts', path: '/contacts/search', args, switch: 'contacts-search-port' };
  }
  if (
    tool === 'calendar_list_events' &&
    isObject(args) &&
    args.date === undefined &&
    typeof args.start_date === 'string'
  ) {
    const start = args.start_date.slice(0, 10);
    const end = typeof args.end_date === 'string' ? args.end_date.slice(0, 10) : start;
    const days = Math.max(
      1,
      Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS) + 1,
    );
    return { path, args: { date: start, days: Number.isFinite(days) ? days : 1 }, switch: 'calendar-date-range' };
  }
  if (tool === 'finance_report_submit' && isObject(args) && args.transactions === undefined) {
    return { path, args: { ...args, transactions: [] }, switch: 'finance-report-transactions' };
  }
  return { path, args };
}
