import { useSyncExternalStore } from 'react';

/**
 * A URL per page and per open task, in the hash (#/tasks/T019zh_inventory_check), so Back,
 * Forward, reload and bookmarks work in the desktop app and in browser mode alike (the static
 * server needs no route table). The browser-mode token arrives once as #token=… and is taken out
 * by the transport before the router reads the hash.
 */
export type Page =
  | 'plan'
  | 'tasks'
  | 'runs'
  | 'trajectories'
  | 'curation'
  | 'export'
  | 'jobs'
  | 'workspace'
  | 'settings';
/**
 * #/tasks/<id>; #/trajectories/<id>, and #/trajectories/<id>/compare/<other> (two runs of one task side by
 * side); #/runs/<id> (a run's report), and #/runs/<id>/compare/<other> (teacher and student reports side by side).
 */
export type Route = { page: Page; taskId?: string; trajectoryId?: number; runId?: number; compareId?: number };

const PAGES: Page[] = ['plan', 'tasks', 'runs', 'trajectories', 'curation', 'export', 'jobs', 'workspace', 'settings'];
const id = (s: string | undefined) => (s && /^\d+$/.test(s) ? Number(s) : undefined);

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const page = PAGES.includes(parts[0] as Page) ? (parts[0] as Page) : 'plan';
  if (page === 'tasks' && parts[1]) return { page, taskId: parts[1] };
  const key = page === 'trajectories' ? 'trajectoryId' : page === 'runs' ? 'runId' : null;
  const first = key ? id(parts[1]) : undefined;
  if (!key || first === undefined) return { page };
  const compareId = parts[2] === 'compare' ? id(parts[3]) : undefined;
  return compareId === undefined ? { page, [key]: first } : { page, [key]: first, compareId };
}

export const routeHash = (r: Route) =>
  `#/${r.page}${r.taskId ? `/${encodeURIComponent(r.taskId)}` : ''}` +
  (r.trajectoryId !== undefined ? `/${r.trajectoryId}` : '') +
  (r.runId !== undefined ? `/${r.runId}` : '') +
  (r.compareId !== undefined ? `/compare/${r.compareId}` : '');

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
