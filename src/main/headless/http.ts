import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { contract, PROCEDURE_NAMES, type ApiResult } from '../../shared/contract';
import type { Core } from '../core';
import { parseJsonText } from '../core/lib/json-input';
import { serveStatic } from './static-files';

export type HttpServerOptions = {
  core: Core;
  port?: number;
  token?: string;
  rendererDir?: string;
  maxBodyBytes?: number;
};
export type HttpServer = { url: string; port: number; token: string; close(): Promise<void> };

const fail = (code: 'BAD_REQUEST' | 'UNAUTHORIZED', message: string): ApiResult<never> => ({
  ok: false,
  error: { code, message },
});

/**
 * The contract over HTTP on 127.0.0.1 only: POST /rpc/:name, GET /rpc (index), GET /events (SSE),
 * and the built renderer at /. Every /rpc and /events request needs the per-start token.
 */
export async function startHttpServer(o: HttpServerOptions): Promise<HttpServer> {
  const token = o.token ?? randomBytes(24).toString('base64url');
  const maxBody = o.maxBodyBytes ?? 16 * 1024 * 1024;
  let port = 0;

  const authorized = (req: http.IncomingMessage, url: URL) => {
    const given = (req.headers.authorization ?? '').replace(/^Bearer /, '') || url.searchParams.get('token') || '';
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  const sendJson = (res: http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
    });
    res.end(text);
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // DNS-rebinding guard: a page on another name that resolves to 127.0.0.1 must not reach us.
    if (!/^(127\.0\.0\.1|localhost)(:\d+)?$/.test(req.headers.host ?? ''))
      return sendJson(res, 403, fail('UNAUTHORIZED', `host ${req.headers.host} is not allowed`));
    const isApi = url.pathname === '/rpc' || url.pathname.startsWith('/rpc/') || url.pathname === '/events';
    if (!isApi) return serveStatic(o.rendererDir, url.pathname, res);
    if (!authorized(req, url))
      return sendJson(
        res,
        401,
        fail(
          'UNAUTHORIZED',
          'missing or wrong token: send "Authorization: Bearer <token>" (printed by `coworkenv serve`)',
        ),
      );
    if (url.pathname === '/events') return openEventStream(req, res);
    if (url.pathname === '/rpc') {
      return sendJson(
        res,
        200,
        PROCEDURE_NAMES.map((name) => ({
          name,
          kind: contract[name].kind,
          summary: contract[name].summary,
          input: z.toJSONSchema(contract[name].input, { io: 'input', unrepresentable: 'any' }),
        })),
      );
    }
    if (req.method !== 'POST') return sendJson(res, 405, fail('BAD_REQUEST', `use POST for ${url.pathname}`));
    let name: string;
    try {
      name = decodeURIComponent(url.pathname.slice('/rpc/'.length));
    } catch {
      // A bad %-escape throws URIError; uncaught here it would take the whole server down.
      return sendJson(res, 400, fail('BAD_REQUEST', `malformed procedure name in ${url.pathname}`));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBody) {
        sendJson(res, 413, fail('BAD_REQUEST', `request body over ${maxBody} bytes`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', async () => {
      if (res.headersSent) return;
      const text = Buffer.concat(chunks).toString('utf8');
      let input: unknown;
      if (text.trim() !== '') {
        const parsed = parseJsonText(text, 'request body');
        if (!parsed.ok) return sendJson(res, 400, fail('BAD_REQUEST', parsed.message));
        input = parsed.value;
      }
      // A dispatched envelope is always 200, failures included: the body's `ok` says how it went,
      // and the renderer's expected refusals (an invalid cell) must not log network errors.
      // Non-200 statuses are for the transport itself: token, JSON, method, size, host.
      const result = await o.core.dispatch(name, input);
      sendJson(res, 200, result);
    });
  });

  function openEventStream(req: http.IncomingMessage, res: http.ServerResponse) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(': connected\n\n');
    const off = o.core.events.on((e) => res.write(`event: ${e.event}\ndata: ${JSON.stringify(e.payload)}\n\n`));
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    req.on('close', () => (off(), clearInterval(ping)));
  }

  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
