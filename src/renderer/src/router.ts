import { useSyncExternalStore } from 'react';

/**
 * A URL per page and per open task, in the hash (#/tasks/T019zh_inventory_check), so Back,
 * Forward, reload and bookmarks work in the desktop app and in browser mode alike (the static
 * server needs no route table). The browser-mode token arrives once as #token=… and is taken out
 * by the transport before the router reads the hash.
 */
export type Page = 'plan' | 'tasks' | 'export' | 'jobs' | 'workspace' | 'settings';
export type Route = { page: Page; taskId?: string };

const PAGES: Page[] = ['plan', 'tasks', 'export', 'jobs', 'workspace', 'settings'];

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const page = PAGES.includes(parts[0] as Page) ? (parts[0] as Page) : 'plan';
  return page === 'tasks' && parts[1] ? { page, taskId: parts[1] } : { page };
}

export const routeHash = (r: Route) => `#/${r.page}${r.taskId ? `/${encodeURIComponent(r.taskId)}` : ''}`;

export function navigate(r: Route, replace = false): void {
  const hash = routeHash(r);
  if (window.location.hash === hash) return;
  if (replace) history.replaceState(null, '', hash);
  else window.location.hash = hash;
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

const subscribe = (cb: () => void) => {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
};

let last = '';
let lastRoute: Route = { page: 'plan' };
const snapshot = () => {
  if (window.location.hash !== last) (last = window.location.hash), (lastRoute = parseRoute(last));
  return lastRoute;
};

export const useRoute = (): Route => useSyncExternalStore(subscribe, snapshot);
