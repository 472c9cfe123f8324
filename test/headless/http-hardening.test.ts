import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { startHttpServer, type HttpServer } from '../../src/main/headless/http';
import { slotInput } from '../helpers/call';
import { createTestCore, tempDir } from '../helpers/test-core';
import { httpCall, rawRequest } from '../helpers/transports';

const INDEX_HTML = '<!doctype html><title>CoworkEnv test renderer</title>';
let core: Core;
let server: HttpServer;
let bare: HttpServer;
let clock = 1_000_000;
beforeAll(async () => {
  ({ core } = createTestCore());
  const rendererDir = path.join(tempDir(), 'renderer');
  fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(rendererDir, 'index.html'), INDEX_HTML);
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log("app");');
  server = await startHttpServer({ core, rendererDir, now: () => clock });
  bare = await startHttpServer({ core, rendererDir: path.join(tempDir(), 'missing') });
});
afterAll(async () => {
  await server.close();
  await bare.close();
  await core.close();
});

const bearer = () => ({ authorization: `Bearer ${server.token}` });
const slots = async () =>
  ((await httpCall(server, 'plan.stats', {})).envelope as { ok: true; data: { slots: number } }).data.slots;

describe('the token travels as a header, except for EventSource', () => {
  it('?token= is refused on /rpc and /rpc/:name (it would land in logs and history)', async () => {
    const listing = await rawRequest(server.port, { path: `/rpc?token=${server.token}` });
    expect(listing.status).toBe(401);
    const call = await rawRequest(server.port, {
      method: 'POST',
      path: `/rpc/plan.stats?token=${encodeURIComponent(server.token)}`,
      body: '{}',
    });
    expect(call.status).toBe(401);
    expect(JSON.parse(call.body)).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
  });

  it('/events takes ?token= (EventSource cannot send headers) or the header', async () => {
    for (const opts of [{ path: `/events?token=${server.token}` }, { path: '/events', headers: bearer() }]) {
      const status = await new Promise<number>((resolve) => {
        const req = http.get({ host: '127.0.0.1', port: server.port, ...opts }, (res) => {
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
      });
      expect(status, opts.path).toBe(200);
    }
    expect((await rawRequest(server.port, { path: '/events?token=wrong' })).status).toBe(401);
  });
});

describe('Origin', () => {
  it('a cross-origin request is 403 and does not run, with or without the token', async () => {
    const before = await slots();
    for (const origin of [
      'http://evil.example',
      'null',
      `http://127.0.0.1:${server.port + 1}`,
      `https://127.0.0.1:${server.port}`,
      `http://127.0.0.1.evil.example:${server.port}`,
      `http://[::1]:${server.port}`,
    ]) {
      const r = await rawRequest(server.port, {
        method: 'POST',
        path: '/rpc/plan.create',
        body: JSON.stringify({ rows: [slotInput()] }),
        headers: { ...bearer(), origin, 'content-type': 'application/json' },
      });
      expect(r.status, origin).toBe(403);
      expect(JSON.parse(r.body), origin).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
    }
    const events = await rawRequest(server.port, {
      path: `/events?token=${server.token}`,
      headers: { origin: 'http://evil.example' },
    });
    expect(events.status).toBe(403);
    expect(await slots()).toBe(before);
  });

  it('our own origin (127.0.0.1 or localhost, our port) and no Origin at all are served', async () => {
    for (const origin of [`http://127.0.0.1:${server.port}`, `http://localhost:${server.port}`, undefined]) {
      const r = await rawRequest(server.port, {
        method: 'POST',
        path: '/rpc/plan.stats',
        body: '{}',
        headers: { ...bearer(), ...(origin ? { origin } : {}) },
      });
      expect(r.status, origin).toBe(200);
    }
  });
});

describe('request bodies', () => {
  it('a body that is not valid UTF-8 is 400 naming where, and nothing is written', async () => {
    const before = await slots();
    const good = Buffer.from(JSON.stringify({ rows: [slotInput({ notes: 'caf\u00e9 XX' })] }), 'utf8');
    const at = good.indexOf('XX');
    for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80] /* a lone surrogate */, [0xc0, 0xaf] /* overlong */]) {
      const body = Buffer.concat([good.subarray(0, at), Buffer.from(bad), good.subarray(at + 2)]);
      const r = await rawRequest(server.port, {
        method: 'POST',
        path: '/rpc/plan.create',
        body,
        headers: { ...bearer(), 'content-type': 'application/json' },
      });
      expect(r.status, String(bad)).toBe(400);
      expect(JSON.parse(r.body)).toMatchObject({
        ok: false,
        error: { code: 'BAD_REQUEST', message: `request body is not valid UTF-8 (byte ${at}, line 1)` },
      });
    }
    expect(await slots()).toBe(before);
    const ok = await httpCall(server, 'plan.create', {
      rows: [slotInput({ notes: 'caf\u00e9 \u4e2d\u6587 \ud83d\ude00' })],
    });
    expect(ok.envelope).toMatchObject({ ok: true });
  });
});

describe('X-Content-Type-Options: nosniff on every response', () => {
  it('API answers, refusals, events, the renderer and the not-built page', async () => {
    const responses = {
      rpc: await rawRequest(server.port, { method: 'POST', path: '/rpc/plan.stats', body: '{}', headers: bearer() }),
      index: await rawRequest(server.port, { path: '/rpc', headers: bearer() }),
      unauthorized: await rawRequest(server.port, { method: 'POST', path: '/rpc/plan.stats', body: '{}' }),
      foreignHost: await rawRequest(server.port, { path: '/', headers: { host: 'evil.example' } }),
      method: await rawRequest(server.port, { path: '/rpc/plan.stats', headers: bearer() }),
      badJson: await rawRequest(server.port, { method: 'POST', path: '/rpc/plan.stats', body: '{', headers: bearer() }),
      html: await rawRequest(server.port, { path: '/' }),
      js: await rawRequest(server.port, { path: '/assets/app.js' }),
      notBuilt: await rawRequest(bare.port, { path: '/' }),
      openUnknown: await rawRequest(server.port, { path: '/open/nope' }),
    };
    for (const [what, r] of Object.entries(responses))
      expect(r.headers['x-content-type-options'], what).toBe('nosniff');
    const sse = await new Promise<http.IncomingHttpHeaders>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port: server.port, path: '/events', headers: bearer() }, (res) => {
        resolve(res.headers);
        req.destroy();
      });
    });
    expect(sse['x-content-type-options']).toBe('nosniff');
  });
});

describe('one-time sign-in links (serve --open)', () => {
  it('openUrl() holds no token; it redirects once to the app with the token in the fragment', async () => {
    const url = server.openUrl();
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/open/[A-Za-z0-9_-]{20,}$`));
    expect(url).not.toContain(server.token);
    const p = new URL(url).pathname;
    const first = await rawRequest(server.port, { path: p });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe(`/#token=${server.token}`);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['referrer-policy']).toBe('no-referrer');
    const again = await rawRequest(server.port, { path: p });
    expect(again.status).toBe(410);
    expect(again.body).toMatch(/already used or has expired/);
    expect(again.body).not.toContain(server.token);
    expect(again.headers.location).toBeUndefined();
  });

  it('a link expires after 60 s; two links are independent; an unknown code is refused', async () => {
    const a = new URL(server.openUrl()).pathname;
    const b = new URL(server.openUrl()).pathname;
    expect(a).not.toBe(b);
    clock += 59_000;
    expect((await rawRequest(server.port, { path: a })).status).toBe(303);
    clock += 2_000;
    expect((await rawRequest(server.port, { path: b })).status).toBe(410);
    expect((await rawRequest(server.port, { path: '/open/' })).status).toBe(410);
    expect((await rawRequest(server.port, { path: `/open/${server.token}` })).status).toBe(410);
  });

  it('the link is subject to the Host and Origin checks and answers GET only', async () => {
    const p = new URL(server.openUrl()).pathname;
    expect((await rawRequest(server.port, { path: p, headers: { host: 'evil.example' } })).status).toBe(403);
    expect((await rawRequest(server.port, { path: p, headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect((await rawRequest(server.port, { method: 'POST', path: p })).status).toBe(405);
    expect((await rawRequest(server.port, { method: 'HEAD', path: p })).status).toBe(405);
    expect((await rawRequest(server.port, { path: p })).status).toBe(303);
  });
});
