import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_ORIGIN, APP_SCHEME, APP_SCHEME_PRIVILEGES, rendererResponse } from '../../src/main/electron/app-protocol';
import { CONTENT_SECURITY_POLICY } from '../../src/main/electron/security';
import { tempDir } from '../helpers/test-core';

/** The packaged renderer is served from coworkenv://app/… (a handler fed real Request objects, as Electron does). */
let root: string;
const INDEX = '<!doctype html><title>app</title>';
beforeAll(() => {
  const base = tempDir();
  root = path.join(base, 'renderer');
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), INDEX);
  fs.writeFileSync(path.join(root, 'assets', 'index-abc.js'), 'export {};');
  fs.writeFileSync(path.join(root, 'assets', 'index-abc.css'), 'body{}');
  fs.writeFileSync(path.join(root, 'assets', 'logo.svg'), '<svg/>');
  fs.writeFileSync(path.join(root, 'assets', 'font.woff2'), Buffer.from([0x77, 0x4f, 0x46, 0x32]));
  fs.writeFileSync(path.join(root, 'assets', 'data.bin'), Buffer.from([1, 2, 3]));
  fs.writeFileSync(path.join(base, 'secret.txt'), 'TOP SECRET');
  fs.mkdirSync(path.join(base, 'renderer-evil'));
  fs.writeFileSync(path.join(base, 'renderer-evil', 'x.html'), 'EVIL');
});

const get = (url: string, method = 'GET') => rendererResponse(root, new Request(url, { method }));

describe('the app:// scheme', () => {
  it('is privileged as a standard, secure scheme (origin, storage, module scripts) without bypassing CSP', () => {
    expect(APP_SCHEME).toBe('coworkenv');
    expect(APP_ORIGIN).toBe('coworkenv://app');
    expect(APP_SCHEME_PRIVILEGES).toEqual({
      scheme: 'coworkenv',
      privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
    });
    expect(APP_SCHEME_PRIVILEGES.privileges).not.toHaveProperty('bypassCSP');
  });
});

describe('rendererResponse', () => {
  it('serves files with their MIME type, the CSP and nosniff', async () => {
    const cases: [string, string, string][] = [
      ['/index.html', 'text/html; charset=utf-8', INDEX],
      ['/', 'text/html; charset=utf-8', INDEX],
      ['/assets/index-abc.js', 'text/javascript; charset=utf-8', 'export {};'],
      ['/assets/index-abc.css', 'text/css; charset=utf-8', 'body{}'],
      ['/assets/logo.svg', 'image/svg+xml', '<svg/>'],
      ['/assets/font.woff2', 'font/woff2', 'wOF2'],
      ['/assets/data.bin', 'application/octet-stream', '\u0001\u0002\u0003'],
    ];
    for (const [p, type, body] of cases) {
      const r = await get(`${APP_ORIGIN}${p}`);
      expect(r.status, p).toBe(200);
      expect(r.headers.get('content-type'), p).toBe(type);
      expect(r.headers.get('content-security-policy'), p).toBe(CONTENT_SECURITY_POLICY);
      expect(r.headers.get('x-content-type-options'), p).toBe('nosniff');
      expect(await r.text(), p).toBe(body);
    }
    const withQuery = await get(`${APP_ORIGIN}/index.html?x=1#/plan`);
    expect(await withQuery.text()).toBe(INDEX);
  });

  it('refuses every path that leaves the renderer folder', async () => {
    for (const p of [
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/assets/%2e%2e%5c%2e%2e%5csecret.txt',
      '/../renderer-evil/x.html',
      '/%2e%2e/renderer-evil/x.html',
      '/index.html%00.js',
      '/%zz',
    ]) {
      const r = await get(`${APP_ORIGIN}${p}`);
      expect([400, 403, 404], p).toContain(r.status);
      const text = await r.text();
      expect(text, p).not.toContain('TOP SECRET');
      expect(text, p).not.toContain('EVIL');
      expect(r.headers.get('x-content-type-options'), p).toBe('nosniff');
    }
  });

  it('a missing file or a folder is 404 (no index.html fallback: the app routes by hash)', async () => {
    expect((await get(`${APP_ORIGIN}/nope.js`)).status).toBe(404);
    expect((await get(`${APP_ORIGIN}/assets`)).status).toBe(404);
    expect((await get(`${APP_ORIGIN}/assets/`)).status).toBe(404);
  });

  it('only host "app" and GET/HEAD are answered', async () => {
    expect((await get('coworkenv://other/index.html')).status).toBe(404);
    expect((await get(`${APP_ORIGIN}/index.html`, 'POST')).status).toBe(405);
    const head = await get(`${APP_ORIGIN}/index.html`, 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});
