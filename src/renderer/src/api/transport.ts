import type { ApiResult } from '../../../shared/contract/define';
import type { AnyEvent } from '../../../shared/contract/events';
import type { PreloadApi } from '../../../shared/preload-api';

declare global {
  interface Window {
    api?: PreloadApi;
  }
}

const TOKEN_KEY = 'coworkenv.token';

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
