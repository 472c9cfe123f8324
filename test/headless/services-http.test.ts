import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { serveEnvironment, type ServicesServer } from '../../src/main/headless/services-http';
import { createTestCore } from '../helpers/test-core';
import { rawRequest } from '../helpers/transports';
import { HAND_WRITTEN, workspaceWithHandWritten } from '../validation/stored-tasks';

/**
 * `services serve` has no token (Claw-Eval's harness sends none), so the only thing between a web
 * page and these mutating endpoints is the Host check: a DNS-rebinding page (evil.example
 * resolving to 127.0.0.1) sends its own name as Host.
 */
let core: Core;
let server: ServicesServer;
let port: number;
beforeAll(async () => {
  ({ core } = createTestCore({ workspacePath: await workspaceWithHandWritten() }));
  server = await serveOnFreePorts();
  port = server.ports.helpdesk!;
});
afterAll(async () => {
  await server.close();
  await core.close();
});

/** The declared ports may be taken on a shared machine: shift them into a random free-looking range. */
async function serveOnFreePorts(): Promise<ServicesServer> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await serveEnvironment(
        core.taskEnvironment(HAND_WRITTEN[0], undefined)!,
        30000 + Math.floor(Math.random() * 20000),
      );
    } catch (err) {
      if (attempt > 5) throw err;
    }
  }
}

const update = (host: string | undefined) =>
  rawRequest(port, {
    method: 'POST',
    path: '/helpdesk/tickets/update',
    body: JSON.stringify({ ticket_id: 'TK-3002', priority: 'urgent' }),
    headers: { 'content-type': 'application/json', ...(host === undefined ? {} : { host }) },
  });
const updates = async () =>
  (JSON.parse((await rawRequest(port, { path: '/helpdesk/audit' })).body) as { updated_tickets: unknown[] })
    .updated_tickets.length;

describe('services serve: Host check against DNS rebinding', () => {
  it('a foreign Host is 403 and reaches no handler (nothing audited)', async () => {
    const before = await updates();
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `localhost.evil.example`,
      '10.0.0.5',
      '[::2]:9100',
    ]) {
      const r = await update(host);
      expect(r.status, host).toBe(403);
      expect(JSON.parse(r.body), host).toEqual({ detail: expect.stringContaining('Host') });
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
    const audit = await rawRequest(port, { path: '/helpdesk/audit', headers: { host: 'evil.example' } });
    expect(audit.status).toBe(403);
    expect(await updates()).toBe(before);
  });

  it('an HTTP/1.0 request with no Host at all is refused', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const s = net.connect({ host: '127.0.0.1', port }, () => s.end('GET /helpdesk/audit HTTP/1.0\r\n\r\n'));
      let text = '';
      s.on('data', (c) => (text += c.toString()));
      s.on('end', () => resolve(text));
      s.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.[01] 403/);
  });

  it('loopback names with any port are served: 127.0.0.1, localhost, [::1]', async () => {
    const before = await updates();
    for (const host of [`127.0.0.1:${port}`, '127.0.0.1', `localhost:${port}`, 'LOCALHOST:1', '[::1]:9100', '[::1]']) {
      const r = await update(host);
      expect(r.status, host).toBe(200);
    }
    expect(await updates()).toBe(before + 6);
  });
});
