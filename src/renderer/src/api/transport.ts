import type { ApiResult } from '../../../shared/contract/define';
import type { AnyEvent } from '../../../shared/contract/events';
import type { PreloadApi } from '../../../shared/preload-api';

declare global {
  interface Window {
    api?: PreloadApi;
  }
}

const TOKEN_KEY = 'coworkenv.token';

/** Why the server refused this tab: it had no token, or one the server does not know (it was restarted). */
export type SessionProblem = 'missing' | 'rejected';
let sessionProblem: SessionProblem | null = null;
const sessionListeners = new Set<(p: SessionProblem) => void>();
/** The tab's sign-in problem so far (null: none seen); the app shows it instead of empty grids. */
export const currentSessionProblem = () => sessionProblem;
export function onSessionProblem(listener: (p: SessionProblem) => void): () => void {
  sessionListeners.add(listener);
  return () => void sessionListeners.delete(listener);
}

/**
 * Browser mode: the server prints a URL with #token=…; keep it for this tab (reloads included)
 * and take it out of the address bar so it is not copied around by accident.
 */
function takeToken(): string {
  const m = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
  if (m) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]!));
    history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

function httpTransport(): PreloadApi {
  const token = takeToken();
  return {
    async call(name, input) {
      try {
        const res = await fetch(`/rpc/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(input ?? {}),
        });
        // 401 is the transport's own answer (wrong or missing token): every later call would fail the same way.
        if (res.status === 401 && !sessionProblem) {
          sessionProblem = token ? 'rejected' : 'missing';
          for (const l of sessionListeners) l(sessionProblem);
        }
        return (await res.json()) as ApiResult<unknown>;
      } catch (err) {
        return {
          ok: false,
          error: {
            code: 'INTERNAL',
            message: `the server did not answer (${(err as Error).message}); is \`coworkenv serve\` still running?`,
          },
        };
      }
    },
    on(listener) {
      const source = new EventSource(`/events?token=${encodeURIComponent(token)}`);
      const names: AnyEvent['event'][] = ['table.changed', 'job.progress'];
      const handlers = names.map((event) => {
        const h = (m: MessageEvent<string>) => listener({ event, payload: JSON.parse(m.data) } as AnyEvent);
        source.addEventListener(event, h);
        return h;
      });
      return () => {
        names.forEach((n, i) => source.removeEventListener(n, handlers[i]!));
        source.close();
      };
    },
  };
}

/** The desktop app's preload exposes window.api; a browser tab talks HTTP to `coworkenv serve`. */
export const transport: PreloadApi = window.api ?? httpTransport();
export const transportKind: 'ipc' | 'http' = window.api ? 'ipc' : 'http';
