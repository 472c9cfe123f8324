import type { App, Session, WebContents, WebPreferences } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../renderer-serving';

export { CONTENT_SECURITY_POLICY };

/** The renderer gets no Node, runs sandboxed and isolated; it reaches the core only through window.api. */
export const SECURE_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  spellcheck: false,
} as const satisfies WebPreferences;

/** DevTools only in development: a packaged app has no use for them and they bypass every other guard. */
export const devToolsAllowed = (app: Pick<App, 'isPackaged'>): boolean => !app.isPackaged;

/** The main window's preferences: the secure set, DevTools per devToolsAllowed, our preload. */
export const webPreferencesFor = (o: { devTools: boolean; preload: string }): WebPreferences => ({
  ...SECURE_WEB_PREFERENCES,
  devTools: o.devTools,
  preload: o.preload,
});

/**
 * Is `url` the app's own page: coworkenv://app/… when packaged, the dev server in development?
 * Scheme and host are compared, not URL.origin: every non-special scheme (coworkenv:, file:) has
 * the origin "null", so an origin comparison would accept coworkenv://anything.
 */
export function isAppUrl(url: string, appOrigin: string): boolean {
  try {
    const u = new URL(url);
    const app = new URL(appOrigin);
    return u.protocol === app.protocol && u.host === app.host && app.host !== '';
  } catch {
    return false;
  }
}

type ContentsLike = Pick<WebContents, 'on' | 'setWindowOpenHandler'> & Partial<Pick<WebContents, 'closeDevTools'>>;

/**
 * No navigation away from the app (main frame, subframes, redirects), no new windows, no
 * <webview>: links the app needs open through the OS later. Without DevTools, opened ones close.
 */
export function lockDownContents(contents: ContentsLike, appOrigin: string, o: { devTools?: boolean } = {}): void {
  const guard = (event: { preventDefault(): void }, url: string) => {
    if (!isAppUrl(url, appOrigin)) event.preventDefault();
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-frame-navigate', (event) => guard(event, event.url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  if (o.devTools === false) contents.on('devtools-opened', () => contents.closeDevTools?.());
}

/**
 * Applies lockDownContents to every webContents Electron ever creates (windows, and anything a
 * future feature or a bug opens), not only the main window. Call before the first window.
 */
export function lockDownEveryWebContents(app: Pick<App, 'on'>, appOrigin: string, o: { devTools: boolean }): void {
  app.on('web-contents-created', (_event, contents) => lockDownContents(contents, appOrigin, o));
}

/**
 * The app needs no camera, microphone, location, notifications, clipboard reads, HID/USB/serial…:
 * every permission request is refused and every check answers no, for every origin.
 */
export function denyAllPermissions(
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>,
) {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/** Adds our CSP to every response the window loads (the dev server's included). */
export function cspHeaders(headers: Record<string, string[] | string> | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k] = Array.isArray(v) ? v : [v];
  out['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
  return out;
}
