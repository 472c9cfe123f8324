import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Core } from '../../src/main/core';
import { startHttpServer, type HttpServer } from '../../src/main/headless/http';
import { PROCEDURE_NAMES } from '../../src/shared/contract';
import { slotInput } from '../helpers/call';
import { httpCall, rawRequest } from '../helpers/transports';
import { createTestCore, tempDir } from '../helpers/test-core';

const INDEX_HTML = '<!doctype html><title>CoworkEnv test renderer</title>';
let core: Core;
let server: HttpServer;
let bare: HttpServer;
beforeAll(async () => {
  ({ core } = createTestCore());
  const root = tempDir();
  const rendererDir = path.join(root, 'renderer');
  fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(rendererDir, 'index.html'), INDEX_HTML);
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log("app");');
  fs.writeFileSync(path.join(root, 'secret.txt'), 'TOP SECRET');
  server = await startHttpServer({ core, rendererDir, maxBodyBytes: 4096 });
  bare = await startHttpServer({ core, rendererDir: path.join(root, 'missing') });
});
afterAll(async () => {
  await server.close();
  await bare.close();
  await core.close();
});

const post = (p: string, body: string, headers: Record<string, string> = {}) =>
  rawRequest(server.port, {
    method: 'POST',
    path: p,
    body,
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', ...headers },
  });

describe('authentication and transport errors', () => {
  it('a missing or wrong token is 401 UNAUTHORIZED, and nothing runs', async () => {
    const body = JSON.stringify({ rows: [slotInput()] });
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer nope' },
      { authorization: `Bearer ${'x'.repeat(server.token.length)}` },
      { authorization: server.token.slice(1) },
    ]) {
      const r = await rawRequest(server.port, { method: 'POST', path: '/rpc/plan.create', body, headers });
      expect(r.status).toBe(401);
      expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
    }
    expect((await rawRequest(server.port, { path: '/events' })).status).toBe(401);
    expect((await rawRequest(server.port, { path: '/rpc' })).status).toBe(401);
    expect((await httpCall(server, 'plan.stats', {})).envelope).toMatchObject({ ok: true, data: { slots: 0 } });
  });

  it('a malformed JSON body is 400 BAD_REQUEST naming line and column', async () => {
    const r = await post('/rpc/plan.create', '{\n  "rows": [1,, 2]\n}');
    expect(r.status).toBe(400);
    const env = JSON.parse(r.body);
    expect(env).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(env.error.message).toMatch(/request body:2:14/);
  });

  it('an unknown procedure answers the UNKNOWN_PROCEDURE envelope (dispatched envelopes are 200)', async () => {
    const r = await httpCall(server, 'plan.explode', {});
    expect(r.status).toBe(200);
    expect(r.envelope).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_PROCEDURE', message: expect.stringContaining('plan.explode') },
    });
  });

  it('invalid input answers INVALID_INPUT with issues; an empty body counts as no input', async () => {
    expect((await httpCall(server, 'plan.get', { id: 'x' })).envelope).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', issues: [{ path: ['id'] }] },
    });
    expect(JSON.parse((await post('/rpc/plan.stats', '')).body)).toMatchObject({ ok: true });
  });

  it('a malformed %-escape in the procedure name is 400, and the server keeps serving', async () => {
    const r = await post('/rpc/%zz', '{}');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect((await httpCall(server, 'plan.stats', {})).envelope).toMatchObject({ ok: true });
  });

  it('GET on a procedure is 405', async () => {
    const r = await rawRequest(server.port, {
      path: '/rpc/plan.list',
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(r.status).toBe(405);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });

  it('a body over maxBodyBytes is 413 and is not dispatched', async () => {
    const big = JSON.stringify({ rows: [slotInput({ notes: 'n'.repeat(200_000) })] });
    const r = await post('/rpc/plan.create', big);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST', message: expect.stringContaining('4096') },
    });
    expect((await httpCall(server, 'plan.stats', {})).envelope).toMatchObject({ data: { slots: 0 } });
  });

  it('a foreign Host header is 403 (DNS rebinding)', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${server.port}`,
      `127.0.0.1.evil.example:${server.port}`,
      `localhost.evil:${server.port}`,
    ]) {
      const r = await rawRequest(server.port, {
        method: 'POST',
        path: '/rpc/plan.stats',
        body: '{}',
        headers: { host, authorization: `Bearer ${server.token}` },
      });
      expect(r.status, host).toBe(403);
    }
    const ok = await rawRequest(server.port, {
      method: 'POST',
      path: '/rpc/plan.stats',
      body: '{}',
      headers: { host: `localhost:${server.port}`, authorization: `Bearer ${server.token}` },
    });
    expect(ok.status).toBe(200);
  });
});

describe('index and events', () => {
  it('GET /rpc lists every procedure with its kind, summary and input JSON schema', async () => {
    const r = await rawRequest(server.port, { path: '/rpc', headers: { authorization: `Bearer ${server.token}` } });
    const list = JSON.parse(r.body) as { name: string; kind: string; summary: string; input: { type?: string } }[];
    expect(list.map((p) => p.name)).toEqual(PROCEDURE_NAMES);
    for (const p of list) {
      expect(p.summary.length, p.name).toBeGreaterThan(0);
      expect(p.input.type, p.name).toBe('object');
    }
    const create = list.find((p) => p.name === 'plan.create')!.input as { properties: { rows: { type: string } } };
    expect(create.properties.rows.type).toBe('array');
  });

  it('SSE /events?token= delivers table.changed after a mutation, and unsubscribes on close', async () => {
    const listenersBefore = core.events.size;
    const req = http.get({ host: '127.0.0.1', port: server.port, path: `/events?token=${server.token}` });
    const res = await new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    let text = '';
    const got = new Promise<string>((resolve) => {
      res.on('data', (c: Buffer) => {
        text += c.toString('utf8');
        const m = /event: table\.changed\ndata: (.*)\n\n/.exec(text);
        if (m) resolve(m[1]!);
      });
    });
    await new Promise<void>((resolve) =>
      text.includes(': connected') ? resolve() : res.once('data', () => resolve()),
    );
    expect(core.events.size).toBe(listenersBefore + 1);
    const created = await httpCall(server, 'plan.create', { rows: [slotInput()] });
    const id = (created.envelope as { ok: true; data: { slots: { id: number }[] } }).data.slots[0]!.id;
    expect(JSON.parse(await got)).toEqual({ table: 'coverage_slots', ids: [id] });
    req.destroy();
    // The server sees the close when the socket's end reaches it: a hang guard as generous as the test's, not a race.
    await vi.waitFor(() => expect(core.events.size).toBe(listenersBefore), { timeout: 60_000 });
  });
});

describe('network exposure and static files', () => {
  it('binds 127.0.0.1 only', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal);
    if (!external) return; // No non-loopback interface on this machine: nothing else to try.
    const refused = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host: external.address, port: server.port });
      s.once('connect', () => (s.destroy(), resolve(false)));
      s.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });

  it('serves the renderer with the CSP, and unknown paths get index.html', async () => {
    const index = await rawRequest(server.port, { path: '/' });
    expect(index.status).toBe(200);
    expect(index.body).toBe(INDEX_HTML);
    expect(index.headers['content-security-policy']).toMatch(/default-src 'self'/);
    const js = await rawRequest(server.port, { path: '/assets/app.js' });
    expect(js.headers['content-type']).toMatch(/text\/javascript/);
    expect((await rawRequest(server.port, { path: '/plan/some-route' })).body).toBe(INDEX_HTML);
  });

  it('static paths cannot escape the renderer folder', async () => {
    for (const p of [
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/../package.json',
    ]) {
      const r = await rawRequest(server.port, { path: p });
      expect(r.body, p).not.toContain('TOP SECRET');
      expect(r.body, p).toBe(INDEX_HTML);
    }
  });

  it('a missing renderer folder is 503 with a message saying how to build it', async () => {
    const r = await rawRequest(bare.port, { path: '/' });
    expect(r.status).toBe(503);
    expect(r.body).toMatch(/not built.*npm run build/);
    expect((await httpCall(bare, 'plan.stats', {})).envelope).toMatchObject({ ok: true });
  });
});
