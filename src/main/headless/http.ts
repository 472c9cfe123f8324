import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { contract, PROCEDURE_NAMES, type ApiResult } from '../../shared/contract';
import type { Core } from '../core';
import { parseJsonText } from '../core/lib/json-input';
import { OpenLinks } from './open-links';
import { serveStatic } from './static-files';

export type HttpServerOptions = {
  core: Core;
  port?: number;
  token?: string;
  rendererDir?: string;
  maxBodyBytes?: number;
  /** Clock for the one-time sign-in links (tests). */
  now?: () => number;
};
export type HttpServer = {
  url: string;
  port: number;
  token: string;
  /** A one-time URL (/open/<code>, ~60 s) that signs a browser in without the token on its command line. */
  openUrl(): string;
  close(): Promise<void>;
};

const fail = (code: 'BAD_REQUEST' | 'UNAUTHORIZED', message: string): ApiResult<never> => ({
  ok: false,
  error: { code, message },
});

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text, or where its first invalid UTF-8 byte is (a lenient decode would corrupt the data silently). */
function decodeBody(buf: Buffer): { ok: true; text: string } | { ok: false; message: string } {
  try {
    return { ok: true, text: strictUtf8.decode(buf) };
  } catch {
    // The valid prefix round-trips byte for byte; the first difference is the first bad byte.
    const again = Buffer.from(buf.toString('utf8'), 'utf8');
    let at = 0;
    while (at < buf.length && buf[at] === again[at]) at++;
    const line = buf.subarray(0, at).filter((b) => b === 0x0a).length + 1;
    return { ok: false, message: `request body is not valid UTF-8 (byte ${at}, line ${line})` };
  }
}

/**
 * The contract over HTTP on 127.0.0.1 only: POST /rpc/:name, GET /rpc (index), GET /events (SSE),
 * GET /open/<code> (one-time sign-in for `serve --open`) and the built renderer at /.
 * /rpc needs the per-start token as `Authorization: Bearer`; /events may carry it as ?token=
 * because EventSource cannot send headers. A query-string token anywhere else is refused: URLs
 * end up in history, logs and Referer headers.
 */
export async function startHttpServer(o: HttpServerOptions): Promise<HttpServer> {
  const token = o.token ?? randomBytes(24).toString('base64url');
  const maxBody = o.maxBodyBytes ?? 16 * 1024 * 1024;
  let port = 0;
  const links = new OpenLinks(o.now);

  const authorized = (req: http.IncomingMessage, url: URL) => {
    const header = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const given = header ?? (url.pathname === '/events' ? url.searchParams.get('token') : null) ?? '';
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
    // Every answer, errors and static files included: no MIME sniffing of JSON or text into script.
    res.setHeader('x-content-type-options', 'nosniff');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // DNS-rebinding guard: a page on another name that resolves to 127.0.0.1 must not reach us.
    if (!/^(127\.0\.0\.1|localhost)(:\d+)?$/.test(req.headers.host ?? ''))
      return sendJson(res, 403, fail('UNAUTHORIZED', `host ${req.headers.host} is not allowed`));
    // Cross-site requests (a page elsewhere posting to us, even "simple" CORS-less ones) are refused
    // before anything runs. Browsers send Origin on every POST and cross-origin request.
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`)
      return sendJson(res, 403, fail('UNAUTHORIZED', `origin ${origin} is not allowed`));
    if (url.pathname.startsWith('/open/')) return openLink(req, res, url.pathname.slice('/open/'.length));
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
      const body = decodeBody(Buffer.concat(chunks));
      if (!body.ok) return sendJson(res, 400, fail('BAD_REQUEST', body.message));
      const text = body.text;
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

  /** One-time sign-in: the token goes to this tab in a redirect's fragment (never sent on to any server). */
  function openLink(req: http.IncomingMessage, res: http.ServerResponse, code: string) {
    // GET only: a HEAD (a link preview) must not spend the code.
    if (req.method !== 'GET') return sendJson(res, 405, fail('BAD_REQUEST', 'use GET for a sign-in link'));
    if (!links.redeem(code)) {
      const text =
        'This sign-in link was already used or has expired (links work once, within a minute).\n' +
        'Open the URL printed by `coworkenv serve`, or run `coworkenv serve --open` again.\n';
      res.writeHead(410, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end(text);
    }
    res.writeHead(303, {
      location: `/#token=${encodeURIComponent(token)}`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'content-length': 0,
    });
    res.end();
  }

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
    openUrl: () => `http://127.0.0.1:${port}/open/${links.mint()}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
