import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_ENV_PORT, ENV_PROTOCOL } from '../core/export/rl/package-record';
import { parseJsonText } from '../core/lib/json-input';
import { EnvJudge, type EnvJudgeOptions } from '../core/rl-env/env-judge';
import { DEFAULT_LIMITS, EnvRequestError, EpisodeStore, type EpisodeLimits } from '../core/rl-env/episodes';
import { loadRlPackage } from '../core/rl-env/package-load';
import { isObject, parsePyJson, type PyValue } from '../core/py/pyjson';

export type RlEnvServerOptions = {
  packageDir: string;
  /** Default 8765; 0 picks a free port. */
  port?: number;
  /**
   * The address to listen on (default 127.0.0.1). Another one (e.g. 0.0.0.0) serves rollout workers on other
   * machines: the Host check is then off, so use it on a trusted cluster network only.
   */
  host?: string;
  limits?: Partial<EpisodeLimits>;
  maxBodyBytes?: number;
  /** The clock of idle expiry (tests). */
  now?: () => number;
  /** An OpenAI-compatible judge for llm_judge checks; without one they stay pending (their weight counts 0). */
  judge?: EnvJudgeOptions;
};
export type RlEnvServer = { url: string; port: number; packageId: string; store: EpisodeStore; close(): Promise<void> };

/** An answer already written as JSON text (sent as it is). */
class JsonText {
  constructor(readonly text: string) {}
}

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i;
const ROUTES = [
  'GET /',
  'GET /tasks',
  'GET /tasks/<task_id>',
  'POST /episodes',
  'GET /episodes/<id>',
  'POST /episodes/<id>/step',
  'POST /episodes/<id>/reply',
  'POST /episodes/<id>/grade',
  'GET /episodes/<id>/audit',
  'DELETE /episodes/<id>',
  'POST /episodes/<id>/close',
];

/**
 * The environment server of an RL package (`coworkenv env serve`): its tasks' environments over
 * HTTP on 127.0.0.1, from the package files alone. Protocol in the package README
 * (export/rl/readme.ts); the episodes themselves live in core/rl-env/episodes.ts.
 */
export async function serveRlPackage(o: RlEnvServerOptions): Promise<RlEnvServer> {
  const pkg = loadRlPackage(o.packageDir);
  const limits = { ...DEFAULT_LIMITS, ...o.limits };
  const store = new EpisodeStore(pkg, limits, o.now);
  const judge = o.judge ? new EnvJudge(o.judge) : null;
  const maxBody = o.maxBodyBytes ?? 1024 * 1024;
  const host = o.host ?? '127.0.0.1';
  const loopbackOnly = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/i.test(host);

  const send = (res: http.ServerResponse, status: number, body: string, extra?: Record<string, string>) => {
    // One literal object per answer (no spread): node writes it as it is when no header was set before.
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'no-store',
    };
    if (extra) Object.assign(headers, extra);
    res.writeHead(status, headers);
    res.end(body);
  };
  const fail = (res: http.ServerResponse, e: EnvRequestError, headers?: Record<string, string>) =>
    send(res, e.status, JSON.stringify({ error: { code: e.code, message: e.message } }), headers);

  const failWith = (res: http.ServerResponse, err: unknown) => {
    if (err instanceof EnvRequestError)
      return fail(res, err, 'allow' in err ? { allow: String((err as { allow: string }).allow) } : undefined);
    fail(res, new EnvRequestError(500, 'internal', (err as Error).message));
  };

  const route = (method: string, parts: string[], body: Record<string, PyValue>): unknown => {
    const [a, id, action] = parts;
    const allow = (...methods: string[]) => {
      if (!methods.includes(method))
        throw Object.assign(new EnvRequestError(405, 'method_not_allowed', `use ${methods.join(' or ')} here`), {
          allow: methods.join(', '),
        });
    };
    if (!a) {
      allow('GET');
      return {
        protocol: ENV_PROTOCOL,
        package_id: pkg.packageId,
        tasks: pkg.tasks.size,
        episodes: store.open,
        limits,
        routes: ROUTES,
      };
    }
    if (a === 'tasks' && parts.length <= 2) {
      allow('GET');
      if (!id)
        return {
          tasks: [...pkg.tasks.values()].map((t) => ({
            task_id: t.record.task_id,
            task_name: t.record.task_name,
            tools: t.spec.tools.map((x) => x.name),
            services: t.spec.services.map((s) => s.name),
            user_agent: t.spec.user_agent?.enabled ?? false,
            max_turns: t.spec.environment.max_turns,
          })),
        };
      const t = store.task(decodeURIComponent(id));
      return {
        task_id: t.record.task_id,
        task_name: t.record.task_name,
        prompt: [
          { role: 'system', content: t.record.system_prompt },
          { role: 'user', content: t.spec.prompt.text },
        ],
        tools: t.record.tools,
        max_turns: t.spec.environment.max_turns,
        clock: t.record.clock,
        user_agent: t.spec.user_agent?.enabled ?? false,
        checks_origin: t.record.checks_origin,
      };
    }
    if (a === 'episodes' && parts.length <= 3) {
      if (!id) {
        allow('POST');
        return new JsonText(store.createText(body).text);
      }
      if (!action) {
        allow('GET', 'DELETE');
        return method === 'GET' ? store.info(id) : store.close(id);
      }
      if (action === 'step') return (allow('POST'), store.step(id, body));
      if (action === 'reply') return (allow('POST'), store.reply(id, body));
      if (action === 'grade')
        return (allow('POST'), judge ? store.gradeJudged(id, body, judge) : store.grade(id, body));
      if (action === 'close') return (allow('POST'), store.close(id));
      if (action === 'audit') return (allow('GET'), new JsonText(store.auditText(id)));
    }
    throw new EnvRequestError(404, 'no_route', `no route ${method} /${parts.join('/')}; GET / lists the routes`);
  };

  const server = http.createServer((req, res) => {
    const method = req.method ?? 'GET';
    if (loopbackOnly && !LOOPBACK_HOST.test(req.headers.host ?? ''))
      return fail(
        res,
        new EnvRequestError(403, 'forbidden_host', `Host ${req.headers.host ?? '(none)'} is not a loopback name`),
      );
    const parts = (req.url ?? '/').split('?')[0]!.split('/').filter(Boolean);
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBody && !refused) {
        refused = true;
        // Answer now and drop the rest of the body as it arrives; the connection closes after it.
        fail(res, new EnvRequestError(413, 'body_too_large', `the body is over ${maxBody} bytes`), {
          connection: 'close',
        });
      } else if (!refused) chunks.push(c);
    });
    req.on('end', () => {
      if (refused) return;
      try {
        let body: Record<string, PyValue> = {};
        if (size > 0) {
          if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
            throw new EnvRequestError(415, 'unsupported_media_type', 'send the body as Content-Type: application/json');
          const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
          let v: PyValue;
          try {
            v = parsePyJson(text);
          } catch {
            const p = parseJsonText(text, 'request body');
            throw new EnvRequestError(400, 'bad_json', p.ok ? 'request body: not valid JSON' : p.message);
          }
          if (!isObject(v)) throw new EnvRequestError(400, 'bad_request', 'the body must be a JSON object');
          body = v;
        }
        const out = route(method, parts, body);
        const created = method === 'POST' && parts.length === 1 && parts[0] === 'episodes';
        const answer = (v: unknown) =>
          send(res, created ? 201 : 200, v instanceof JsonText ? v.text : JSON.stringify(v));
        // Only a judged grade waits (on the judge): every other answer is written at once, as before.
        if (out instanceof Promise) out.then(answer, (err: unknown) => failWith(res, err));
        else answer(out);
      } catch (err) {
        failWith(res, err);
      }
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? DEFAULT_ENV_PORT, host, () => resolve());
  });
  const sweeper = setInterval(() => store.sweep(), Math.max(1000, Math.min(limits.idleMs / 2, 30_000)));
  sweeper.unref();
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${loopbackOnly ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    packageId: pkg.packageId,
    store,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweeper);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
