import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A scripted OpenAI-compatible server for tests: node:http on 127.0.0.1, a random port, started by
 * the test. Each POST …/chat/completions takes the next step of the script (or asks a function),
 * and every request is recorded, so tests can assert the prompts sent and that no key leaked.
 *
 *   const srv = await startScriptedOpenAI({ script: [rateLimited('1'), chat('hello')] });
 *   const client = createModelClient({ name: 'x', baseUrl: srv.baseUrl, model: 'm', apiKey: null, timeoutMs: 5000 });
 *   …
 *   expect(srv.chatRequests()[0].body.messages).toEqual(…);
 *   await srv.close();
 *
 * Steps (build them with the helpers below):
 *   chat(content)            a completion with this text (usage included unless given as null)
 *   toolCalls([{name, arguments}])   a completion asking for tool calls; arguments may be a broken string
 *   httpError(status, {retryAfter, message})   an OpenAI-style error body; 429 with Retry-After
 *   garbage(text)            a 200 whose body is not JSON (content-type application/json unless given)
 *   held(step?)              never answer (until close): the client's timeout or an abort must end it,
 *                            so a test of either holds whatever the load (no delay that might lose a race)
 *   gated(gate, step)        answer `step` once the promise `gate` settles (a barrier the test opens)
 *   hangUp()                 close the socket without answering (a transport error)
 * A script function `(req, n) => Step` answers by looking at the request (e.g. tools offered →
 * tool call) — what an end-to-end test with many requests wants. When a list runs out, the
 * server answers 500 "script exhausted" (and `exhausted` counts it), so a test never hangs.
 *
 * Options that make it behave like a real server without scripting each request:
 *   requireKey   answer 401 unless `Authorization: Bearer <requireKey>` (OpenAI's wording, key masked)
 *   models       GET …/models lists these; a chat for another model answers 404 model_not_found
 */
export type ScriptedToolCall = { name: string; arguments: string | Record<string, unknown>; id?: string };
export type Usage = { prompt_tokens: number; completion_tokens: number };

export type Step =
  | {
      type: 'chat';
      content: string | null;
      toolCalls?: ScriptedToolCall[];
      finishReason?: string;
      usage?: Usage | null;
      gate?: Promise<unknown>;
    }
  | {
      type: 'error';
      status: number;
      message?: string;
      retryAfter?: string;
      headers?: Record<string, string>;
      gate?: Promise<unknown>;
    }
  | { type: 'raw'; body: string; status?: number; contentType?: string; gate?: Promise<unknown> }
  | { type: 'hang-up'; gate?: Promise<unknown> };

export type RecordedRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The body as sent. */
  raw: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: ChatBody | undefined;
};

/** The fields tests look at in a chat request. */
export type ChatBody = {
  model: string;
  messages: { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  tool_choice?: unknown;
  response_format?: { type: string };
  temperature?: number;
  max_tokens?: number;
  seed?: number;
  [k: string]: unknown;
};

export type Script = Step[] | ((req: RecordedRequest, n: number) => Step);

export type ScriptedServer = {
  /** http://127.0.0.1:<port>/v1 — what an endpoint's base URL is set to. */
  baseUrl: string;
  port: number;
  /** Every request, in arrival order (GET /models too). */
  requests: RecordedRequest[];
  chatRequests(): RecordedRequest[];
  /** Append steps to a list script. */
  push(...steps: Step[]): void;
  /** Resolves once `n` chat requests have arrived (the test's timeout bounds the wait): an event, not a poll. */
  chatsArrived(n: number): Promise<void>;
  /** Requests answered "script exhausted". */
  readonly exhausted: number;
  close(): Promise<void>;
};

export const chat = (
  content: string | null,
  o: Omit<Extract<Step, { type: 'chat' }>, 'type' | 'content'> = {},
): Step => ({
  type: 'chat',
  content,
  ...o,
});
export const toolCalls = (calls: ScriptedToolCall[], content: string | null = null): Step => ({
  type: 'chat',
  content,
  toolCalls: calls,
  finishReason: 'tool_calls',
});
export const httpError = (
  status: number,
  o: { retryAfter?: string; message?: string; headers?: Record<string, string> } = {},
): Step => ({ type: 'error', status, ...o });
export const rateLimited = (retryAfter?: string): Step =>
  httpError(429, { message: 'Rate limit reached', ...(retryAfter !== undefined ? { retryAfter } : {}) });
export const garbage = (body = '<html>502 Bad Gateway</html>', contentType = 'application/json'): Step => ({
  type: 'raw',
  body,
  contentType,
});
export const hangUp = (): Step => ({ type: 'hang-up' });
export const gated = (gate: Promise<unknown>, step: Step): Step => ({ ...step, gate });
export const held = (step: Step = chat('never')): Step => gated(new Promise(() => {}), step);

/**
 * A script function that answers like a model: the first offered tool is called when tools are
 * offered (unless `tools: false`, then it answers in text), a JSON object under JSON mode (unless
 * `json: false`, then text), else `text`. Enough for `endpoints test` and the Settings page.
 */
export const capableModel =
  (o: { tools?: boolean; json?: boolean; text?: string } = {}) =>
  (req: RecordedRequest): Step => {
    const tool = req.body?.tools?.[0];
    if (tool && o.tools !== false) return toolCalls([{ name: tool.function.name, arguments: { value: 'ok' } }]);
    if (req.body?.response_format?.type === 'json_object')
      return o.json === false ? chat('Sure! ok: true') : chat('{"ok": true}');
    return chat(o.text ?? 'pong');
  };

const OPENAI_ERROR_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  404: 'invalid_request_error',
  429: 'rate_limit_exceeded',
};

export async function startScriptedOpenAI(
  o: { script?: Script; requireKey?: string; models?: string[] } = {},
): Promise<ScriptedServer> {
  const queue: Step[] = Array.isArray(o.script) ? [...o.script] : [];
  const fn = typeof o.script === 'function' ? o.script : undefined;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let exhausted = 0;
  let chats = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const chatRequests = () => requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));

  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const errorBody = (status: number, message: string, code: string | null = null) => ({
    error: { message, type: OPENAI_ERROR_TYPE[status] ?? 'server_error', param: null, code },
  });

  const answer = (res: http.ServerResponse, step: Step, req: RecordedRequest) => {
    if (res.destroyed) return;
    switch (step.type) {
      case 'hang-up':
        res.socket?.destroy();
        return;
      case 'raw':
        res.writeHead(step.status ?? 200, { 'content-type': step.contentType ?? 'application/json' });
        res.end(step.body);
        return;
      case 'error': {
        const headers: Record<string, string> = { ...step.headers };
        if (step.retryAfter !== undefined) headers['retry-after'] = step.retryAfter;
        json(res, step.status, errorBody(step.status, step.message ?? `scripted ${step.status}`), headers);
        return;
      }
      case 'chat': {
        const calls = (step.toolCalls ?? []).map((c, i) => ({
          id: c.id ?? `call_${chats}_${i}`,
          type: 'function',
          function: {
            name: c.name,
            arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
          },
        }));
        const usage = step.usage === undefined ? { prompt_tokens: 50, completion_tokens: 20 } : step.usage;
        json(res, 200, {
          id: `chatcmpl-${chats}`,
          object: 'chat.completion',
          created: 1_770_000_000,
          model: req.body?.model ?? 'unknown',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: step.content, ...(calls.length ? { tool_calls: calls } : {}) },
              finish_reason: step.finishReason ?? (calls.length ? 'tool_calls' : 'stop'),
            },
          ],
          ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
        });
      }
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: ChatBody | undefined;
      try {
        body = raw ? (JSON.parse(raw) as ChatBody) : undefined;
      } catch {
        body = undefined;
      }
      const path = (req.url ?? '/').split('?')[0]!;
      const rec: RecordedRequest = { method: req.method ?? 'GET', path, headers: req.headers, raw, body };
      requests.push(rec);
      const arrived = chatRequests().length;
      for (const w of waiters.filter((x) => x.n <= arrived)) waiters.splice(waiters.indexOf(w), 1), w.resolve();
      if (o.requireKey !== undefined && req.headers.authorization !== `Bearer ${o.requireKey}`) {
        const sent = (req.headers.authorization ?? '').replace(/^Bearer\s+/, '');
        const masked = sent ? `${sent.slice(0, 3)}***${sent.slice(-2)}` : '(none)';
        return json(res, 401, errorBody(401, `Incorrect API key provided: ${masked}.`, 'invalid_api_key'));
      }
      if (req.method === 'GET' && /\/models$/.test(path))
        return json(res, 200, {
          object: 'list',
          data: (o.models ?? []).map((id) => ({ id, object: 'model', created: 0, owned_by: 'scripted' })),
        });
      if (req.method !== 'POST' || !/\/chat\/completions$/.test(path))
        return json(res, 404, errorBody(404, `no route ${req.method} ${path}`));
      if (o.models && body && !o.models.includes(body.model))
        return json(
          res,
          404,
          errorBody(
            404,
            `The model \`${body.model}\` does not exist or you do not have access to it.`,
            'model_not_found',
          ),
        );
      const n = chats++;
      let step = fn ? fn(rec, n) : queue.shift();
      if (!step) {
        exhausted++;
        step = httpError(500, { message: 'scripted server: script exhausted' });
      }
      const s = step;
      const go = () => answer(res, s, rec);
      if (s.gate) void s.gate.then(go, go);
      else go();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    chatRequests,
    push: (...steps) => void queue.push(...steps),
    chatsArrived: (n) =>
      chatRequests().length >= n ? Promise.resolve() : new Promise((resolve) => void waiters.push({ n, resolve })),
    get exhausted() {
      return exhausted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
