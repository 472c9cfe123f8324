import { describe, expect, it, vi } from 'vitest';
import {
  CONTENT_SECURITY_POLICY,
  cspHeaders,
  isAppUrl,
  lockDownContents,
  SECURE_WEB_PREFERENCES,
} from '../../src/main/electron/security';

describe('SECURE_WEB_PREFERENCES', () => {
  it('isolates and sandboxes the renderer with no Node', () => {
    expect(SECURE_WEB_PREFERENCES).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
    });
  });
});

describe('isAppUrl', () => {
  it('packaged app: coworkenv://app only, never a local file or another host of the scheme', () => {
    const APP = 'coworkenv://app';
    expect(isAppUrl('coworkenv://app/index.html', APP)).toBe(true);
    expect(isAppUrl('coworkenv://app/index.html#/jobs', APP)).toBe(true);
    expect(isAppUrl('coworkenv://app/../../secret.html', APP)).toBe(true); // normalised: still inside the app
    expect(isAppUrl('coworkenv://app.evil/index.html', APP)).toBe(false);
    expect(isAppUrl('coworkenv://evil/index.html', APP)).toBe(false);
    expect(
      isAppUrl('file:///Applications/CoworkEnv%20Studio.app/Contents/Resources/app.asar/out/renderer/index.html', APP),
    ).toBe(false);
    expect(isAppUrl('file:///etc/passwd', APP)).toBe(false);
    expect(isAppUrl('https://example.com/', APP)).toBe(false);
  });

  it('dev server: same origin only', () => {
    expect(isAppUrl('http://localhost:5173/#/plan', 'http://localhost:5173')).toBe(true);
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173')).toBe(false);
    expect(isAppUrl('http://localhost.evil.example:5173/', 'http://localhost:5173')).toBe(false);
    expect(isAppUrl('not a url', 'http://localhost:5173')).toBe(false);
  });
});

describe('lockDownContents', () => {
  function fakeContents() {
    const listeners = new Map<string, (event: { preventDefault(): void }, url: string) => void>();
    let openHandler: ((details: { url: string }) => unknown) | undefined;
    const contents = {
      on: vi.fn(
        (name: string, fn: (event: { preventDefault(): void }, url: string) => void) => void listeners.set(name, fn),
      ),
      setWindowOpenHandler: vi.fn((fn: (details: { url: string }) => unknown) => void (openHandler = fn)),
    };
    const fire = (name: string, url: string) => {
      const event = { preventDefault: vi.fn() };
      listeners.get(name)!(event, url);
      return event.preventDefault.mock.calls.length > 0;
    };
    return { contents, fire, open: (url: string) => openHandler!({ url }) };
  }
  const APP = 'http://localhost:5173';

  it("prevents navigation and redirects away from the app, allows the app's own pages", () => {
    const f = fakeContents();
    lockDownContents(f.contents as never, APP);
    for (const name of ['will-navigate', 'will-redirect']) {
      expect(f.fire(name, 'https://evil.example/phish'), name).toBe(true);
      expect(f.fire(name, 'file:///etc/passwd'), name).toBe(true);
      expect(f.fire(name, 'http://localhost:5173/#/jobs'), name).toBe(false);
    }
  });

  it('denies window.open', () => {
    const f = fakeContents();
    lockDownContents(f.contents as never, APP);
    expect(f.open('https://example.com/')).toEqual({ action: 'deny' });
    expect(f.open('http://localhost:5173/')).toEqual({ action: 'deny' });
  });
});

describe('the content security policy', () => {
  it('allows only our own scripts, inline styles for ag-grid, no plugins, no framing', () => {
    const directives = Object.fromEntries(
      CONTENT_SECURITY_POLICY.split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([k, ...v]) => [k, v]),
    );
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval/);
  });

  it('cspHeaders adds it to every response and keeps the other headers as lists', () => {
    expect(cspHeaders({ 'Content-Type': 'text/html', 'Set-Cookie': ['a=1', 'b=2'] })).toEqual({
      'Content-Type': ['text/html'],
      'Set-Cookie': ['a=1', 'b=2'],
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
    expect(cspHeaders(undefined)).toEqual({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
    expect(cspHeaders({ 'Content-Security-Policy': ['default-src *'] })['Content-Security-Policy']).toEqual([
      CONTENT_SECURITY_POLICY,
    ]);
  });
});
