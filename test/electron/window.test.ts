import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_ORIGIN } from '../../src/main/electron/app-protocol';

/**
 * ELECTRON_RENDERER_URL (set by `electron-vite dev`) moves the trusted origin of the navigation
 * lock and the IPC sender check to a dev server. A packaged app must ignore it: anyone who can set
 * an environment variable before launching it could otherwise point the trusted window elsewhere.
 */
const electron = vi.hoisted(() => {
  const loaded: string[] = [];
  class BrowserWindow {
    once() {}
    show() {}
    loadURL(url: string) {
      loaded.push(url);
      return Promise.resolve();
    }
  }
  return {
    loaded,
    app: { isPackaged: true },
    BrowserWindow,
    session: { defaultSession: { webRequest: { onHeadersReceived: vi.fn() } } },
  };
});
vi.mock('electron', () => ({ ...electron, default: electron }));

const { appOrigin, createMainWindow } = await import('../../src/main/electron/window');
const DEV = 'http://localhost:5173';

describe('the renderer URL and trusted origin', () => {
  beforeEach(() => {
    process.env.ELECTRON_RENDERER_URL = DEV;
    electron.loaded.length = 0;
  });
  afterEach(() => {
    delete process.env.ELECTRON_RENDERER_URL;
  });

  it('a packaged app ignores ELECTRON_RENDERER_URL: origin and page stay coworkenv://app', () => {
    electron.app.isPackaged = true;
    expect(appOrigin()).toBe(APP_ORIGIN);
    createMainWindow();
    expect(electron.loaded).toEqual([`${APP_ORIGIN}/index.html`]);
  });

  it('in development (not packaged) the dev server is the origin and the page', () => {
    electron.app.isPackaged = false;
    expect(appOrigin()).toBe(DEV);
    createMainWindow();
    expect(electron.loaded).toEqual([DEV]);
  });

  it('in development without the variable: the app protocol', () => {
    electron.app.isPackaged = false;
    delete process.env.ELECTRON_RENDERER_URL;
    expect(appOrigin()).toBe(APP_ORIGIN);
  });
});
