import { describe, expect, it, vi } from 'vitest';
import { APP_ORIGIN } from '../../src/main/electron/app-protocol';
import { menuTemplate } from '../../src/main/electron/menu';
import {
  denyAllPermissions,
  devToolsAllowed,
  isAppUrl,
  lockDownEveryWebContents,
  webPreferencesFor,
} from '../../src/main/electron/security';

type Listener = (event: { preventDefault(): void }, ...args: unknown[]) => void;

/** A webContents as the hooks see it: its listeners, its window-open handler, its DevTools. */
function fakeContents() {
  const listeners = new Map<string, Listener[]>();
  let openHandler: ((details: { url: string }) => unknown) | undefined;
  const contents = {
    on: vi.fn((name: string, fn: Listener) => void listeners.set(name, [...(listeners.get(name) ?? []), fn])),
    setWindowOpenHandler: vi.fn((fn: (details: { url: string }) => unknown) => void (openHandler = fn)),
    closeDevTools: vi.fn(),
  };
  // Electron passes the URL as an argument and, for will-frame-navigate, only on the event.
  const fire = (name: string, ...args: unknown[]) => {
    const event = { preventDefault: vi.fn(), url: args[0] };
    for (const fn of listeners.get(name) ?? []) fn(event, ...args);
    return event.preventDefault.mock.calls.length > 0;
  };
  return { contents, fire, open: (url: string) => openHandler?.({ url }), listeners };
}

/** app.on('web-contents-created') recorded, so the test can create webContents the way Electron does. */
function fakeApp() {
  const handlers: ((event: unknown, contents: unknown) => void)[] = [];
  const app = {
    on: vi.fn((name: string, fn: (event: unknown, contents: unknown) => void) => {
      if (name === 'web-contents-created') handlers.push(fn);
    }),
  };
  return { app, create: (contents: unknown) => handlers.forEach((h) => h({}, contents)) };
}

describe('every webContents is locked down (app web-contents-created)', () => {
  it('windows, webviews and any later contents: no navigation away, no window.open, no webview', () => {
    const { app, create } = fakeApp();
    lockDownEveryWebContents(app as never, APP_ORIGIN, { devTools: true });
    for (let i = 0; i < 3; i++) {
      const f = fakeContents();
      create(f.contents);
      for (const name of ['will-navigate', 'will-redirect', 'will-frame-navigate']) {
        expect(f.fire(name, 'https://evil.example/phish'), name).toBe(true);
        expect(f.fire(name, 'file:///etc/passwd'), name).toBe(true);
        expect(f.fire(name, 'coworkenv://evil/index.html'), name).toBe(true);
        expect(f.fire(name, `${APP_ORIGIN}/index.html#/jobs`), name).toBe(false);
      }
      expect(f.open('https://example.com/')).toEqual({ action: 'deny' });
      expect(f.open(`${APP_ORIGIN}/index.html`)).toEqual({ action: 'deny' });
      expect(f.fire('will-attach-webview', {}, { src: `${APP_ORIGIN}/index.html` })).toBe(true);
      expect(f.contents.closeDevTools).not.toHaveBeenCalled();
    }
  });

  it('without DevTools (packaged), an opened DevTools is closed at once', () => {
    const { app, create } = fakeApp();
    lockDownEveryWebContents(app as never, APP_ORIGIN, { devTools: false });
    const f = fakeContents();
    create(f.contents);
    f.fire('devtools-opened');
    expect(f.contents.closeDevTools).toHaveBeenCalledTimes(1);
  });
});

describe('permissions', () => {
  it('every permission request is refused and every check answers false, whatever the origin', () => {
    let request: ((wc: unknown, permission: string, cb: (ok: boolean) => void, details: unknown) => void) | undefined;
    let check: ((wc: unknown, permission: string, origin: string, details: unknown) => boolean) | undefined;
    const session = {
      setPermissionRequestHandler: vi.fn((h: typeof request) => void (request = h)),
      setPermissionCheckHandler: vi.fn((h: typeof check) => void (check = h)),
    };
    denyAllPermissions(session as never);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'unknown']) {
      const cb = vi.fn();
      request!({}, permission, cb, { requestingUrl: `${APP_ORIGIN}/index.html` });
      expect(cb, permission).toHaveBeenCalledWith(false);
      expect(check!({}, permission, APP_ORIGIN, {}), permission).toBe(false);
      expect(check!(null, permission, 'https://evil.example', {}), permission).toBe(false);
    }
  });
});

describe('DevTools only in development', () => {
  it('allowed when not packaged, refused when packaged', () => {
    expect(devToolsAllowed({ isPackaged: false })).toBe(true);
    expect(devToolsAllowed({ isPackaged: true })).toBe(false);
  });

  it('the window preferences carry the choice, keep the sandbox, and name the preload', () => {
    const prod = webPreferencesFor({ devTools: false, preload: '/app/out/preload/index.js' });
    expect(prod).toMatchObject({ devTools: false, sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(prod.preload).toBe('/app/out/preload/index.js');
    expect(webPreferencesFor({ devTools: true, preload: 'p' }).devTools).toBe(true);
  });

  it('the View menu offers "Toggle Developer Tools" only in development', () => {
    type Item = { role?: string; submenu?: Item[] };
    const roles = (devTools: boolean) =>
      (menuTemplate('linux', { openWorkspaceFolder() {} }, { devTools }) as Item[]).flatMap((m) =>
        (m.submenu ?? []).map((i) => i.role),
      );
    expect(roles(true)).toContain('toggleDevTools');
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(false)).toContain('reload');
  });
});

describe('isAppUrl with the custom scheme', () => {
  it('only coworkenv://app (non-special schemes all have origin "null": compare scheme and host)', () => {
    expect(isAppUrl(`${APP_ORIGIN}/index.html#/plan`, APP_ORIGIN)).toBe(true);
    expect(isAppUrl(`${APP_ORIGIN}/`, APP_ORIGIN)).toBe(true);
    expect(isAppUrl('coworkenv://evil/index.html', APP_ORIGIN)).toBe(false);
    expect(isAppUrl('other://app/index.html', APP_ORIGIN)).toBe(false);
    expect(isAppUrl('javascript:alert(1)', APP_ORIGIN)).toBe(false);
    expect(isAppUrl('data:text/html,hi', APP_ORIGIN)).toBe(false);
    expect(isAppUrl('file:///app/out/renderer/index.html', APP_ORIGIN)).toBe(false);
    expect(isAppUrl('http://localhost:5173/', 'http://localhost:5173')).toBe(true);
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173')).toBe(false);
  });
});
