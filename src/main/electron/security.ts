import type { WebContents, WebPreferences } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../headless/static-files';

export { CONTENT_SECURITY_POLICY };

/** The renderer gets no Node, runs sandboxed and isolated; it reaches the core only through window.api. */
export const SECURE_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  spellcheck: false,
} as const satisfies WebPreferences;

/** Is `url` the app's own page (the dev server in development, the packaged file otherwise)? */
export function isAppUrl(url: string, appOrigin: string): boolean {
  try {
    const u = new URL(url);
    if (appOrigin.startsWith('file://')) {
      // Compare normalised URLs (Electron reports "CoworkEnv%20Studio.app", the origin is built from a
      // raw path) and only below the folder: ".../renderer-evil/x.html" is not the app.
      const root = new URL(appOrigin).href.replace(/\/?$/, '/');
      return u.protocol === 'file:' && u.href.startsWith(root);
    }
    return u.origin === new URL(appOrigin).origin;
  } catch {
    return false;
  }
}

type ContentsLike = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/** No navigation away from the app and no new windows: links the app needs open through the OS later. */
export function lockDownContents(contents: ContentsLike, appOrigin: string): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, appOrigin)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, appOrigin)) event.preventDefault();
  });
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** Adds our CSP to every response the window loads (the dev server's included). */
export function cspHeaders(headers: Record<string, string[] | string> | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k] = Array.isArray(v) ? v : [v];
  out['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
  return out;
}
