import path from 'node:path';
import { app, BrowserWindow, session } from 'electron';
import { APP_ORIGIN } from './app-protocol';
import { cspHeaders, devToolsAllowed, webPreferencesFor } from './security';

/** The renderer's origin: electron-vite's dev server in development, coworkenv://app otherwise (app-protocol.ts). */
export function appOrigin(): string {
  return process.env.ELECTRON_RENDERER_URL ?? APP_ORIGIN;
}

export function createMainWindow(): BrowserWindow {
  session.defaultSession.webRequest.onHeadersReceived((details, cb) =>
    cb({ responseHeaders: cspHeaders(details.responseHeaders) }),
  );
  const win = new BrowserWindow({
    width: 1360,
    height: 860,
    show: false,
    title: 'CoworkEnv Studio',
    webPreferences: webPreferencesFor({
      devTools: devToolsAllowed(app),
      preload: path.join(__dirname, '../preload/index.js'),
    }),
  });
  // Navigation and window.open are locked down for every webContents in index.ts (web-contents-created).
  win.once('ready-to-show', () => win.show());
  void win.loadURL(process.env.ELECTRON_RENDERER_URL ?? `${APP_ORIGIN}/index.html`);
  return win;
}
