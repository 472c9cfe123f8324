import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Environment } from '../core/services/environment';
import { dumpsCompact, parsePyJson, type PyValue } from '../core/py/pyjson';
import { decideInjection, exemptFromInjection, type ErrorInjection } from '../core/services/error-injection';
import { responseBodyText } from '../core/services/service-instance';

export type ServicesServer = { ports: Record<string, number>; close(): Promise<void> };

/** Loopback names, any port. Hostnames are case-insensitive; an IPv6 literal comes bracketed. */
const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i;

/**
 * Like upstream, no token (Claw-Eval's harness sends none); but a web page could still reach these
 * mutating endpoints by DNS rebinding (evil.example → 127.0.0.1), and it cannot choose the Host header
 * its browser sends. So anything but a loopback name is refused before the body is even read.
 */
export const isLoopbackHost = (host: string | undefined): boolean => LOOPBACK_HOST.test(host ?? '');

/**
 * A task's services over HTTP at Claw-Eval's routes: one listener per service on its declared
 * port shifted by `portBase - 9100`, answering exactly what the in-process call answers (the
 * same ServiceInstance.request), so Claw-Eval's own runner or any harness can use them.
 */
export async function serveEnvironment(
  env: Environment,
  portBase = 9100,
  errors?: ErrorInjection,
): Promise<ServicesServer> {
  const servers: http.Server[] = [];
  const ports: Record<string, number> = {};
  for (const [id, inst] of env.services) {
    const declared = env.spec.services.find((s) => s.id === id)?.port ?? inst.def.port;
    const server = http.createServer((req, res) => {
      if (!isLoopbackHost(req.headers.host)) {
        const text = JSON.stringify({
          detail: `Host ${JSON.stringify(req.headers.host ?? '')} is not a loopback name`,
        });
        res.writeHead(403, { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' });
        return void res.end(text);
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: PyValue | undefined;
        if (text.trim() !== '') {
          try {
            body = parsePyJson(text);
          } catch (err) {
            // FastAPI's answer to a body that is not JSON.
            const detail = [
              {
                type: 'json_invalid',
                loc: ['body', 0],
                msg: 'JSON decode error',
                input: {},
                ctx: { error: (err as Error).message },
              },
            ];
            res.writeHead(422, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ detail }));
            return;
          }
        }
        const path = (req.url ?? '/').split('?')[0]!;
        const method = req.method ?? 'GET';
        const answer = () => {
          const r = inst.request(method, path, body);
          res.writeHead(r.status, {
            'content-type': r.json !== undefined ? 'application/json' : 'text/plain; charset=utf-8',
            ...r.headers,
          });
          res.end(responseBodyText(r));
        };
        // Claw-Eval's error middleware: injected errors never reach the handler (not audited).
        const injected = exemptFromInjection(method, path, req.headers) ? undefined : decideInjection(errors);
        if (!injected) return answer();
        if ('delayMs' in injected) return void setTimeout(answer, injected.delayMs);
        res.writeHead(injected.status, { 'content-type': 'application/json', ...injected.headers });
        res.end(dumpsCompact(injected.body));
      });
    });
    server.keepAliveTimeout = 5_000;
    const port = declared - 9100 + portBase;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    servers.push(server);
    ports[id] = (server.address() as AddressInfo).port;
  }
  return {
    ports,
    close: () =>
      Promise.all(servers.map((s) => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r()))))).then(
        () => {},
      ),
  };
}
