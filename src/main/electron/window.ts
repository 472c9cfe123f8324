import path from 'node:path';
import { app, BrowserWindow, session } from 'electron';
import { APP_ORIGIN } from './app-protocol';
import { cspHeaders, devToolsAllowed, webPreferencesFor } from './security';

/**
 * electron-vite's dev server URL (`electron-vite dev` sets ELECTRON_RENDERER_URL), only while the app
 * is not packaged, as electron-vite's own template does (`is.dev`). A packaged app ignores it: the
 * variable would move the origin the navigation lock and the IPC sender check trust to any server.
 */
function devServerUrl(): string | null {
  return !app.isPackaged && process.env.ELECTRON_RENDERER_URL ? process.env.ELECTRON_RENDERER_URL : null;
}

/** The renderer's origin: electron-vite's dev server in development, coworkenv://app otherwise (app-protocol.ts). */
export function appOrigin(): string {
  return devServerUrl() ?? APP_ORIGIN;
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
  void win.loadURL(devServerUrl() ?? `${APP_ORIGIN}/index.html`);
  return win;
}
