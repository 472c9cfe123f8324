import path from 'node:path';
import { BrowserWindow, session } from 'electron';
import { cspHeaders, lockDownContents, SECURE_WEB_PREFERENCES } from './security';

/** The renderer's origin: electron-vite's dev server in development, the built file otherwise. */
export function appOrigin(): string {
  return process.env.ELECTRON_RENDERER_URL ?? `file://${path.join(__dirname, '../renderer')}`;
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
    webPreferences: { ...SECURE_WEB_PREFERENCES, preload: path.join(__dirname, '../preload/index.js') },
  });
  lockDownContents(win.webContents, appOrigin());
  win.once('ready-to-show', () => win.show());
  if (process.env.ELECTRON_RENDERER_URL) void win.loadURL(process.env.ELECTRON_RENDERER_URL);
  else void win.loadFile(path.join(__dirname, '../renderer/index.html'));
  return win;
}
