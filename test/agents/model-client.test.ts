import { afterEach, describe, expect, it } from 'vitest';
import { parseToolArguments } from '../../src/main/core/agents/chat-types';
import { createModelClient, ModelError, type ModelTarget } from '../../src/main/core/agents/model-client';
import { retryAfterMs } from '../../src/main/core/agents/retry';
import {
  chat,
  held,
  garbage,
  hangUp,
  httpError,
  rateLimited,
  startScriptedOpenAI,
  toolCalls,
  type ScriptedServer,
  type Step,
} from '../helpers/scripted-openai';

const KEY = 'sk-test-7d1f0c9e2b4a6f8d0e1c3b5a';
const servers: ScriptedServer[] = [];
async function serve(script: Step[] | Parameters<typeof startScriptedOpenAI>[0] = []) {
  const s = await startScriptedOpenAI(Array.isArray(script) ? { script } : script);
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const target = (srv: ScriptedServer, over: Partial<ModelTarget> = {}): ModelTarget => ({
  name: 'scripted',
  baseUrl: srv.baseUrl,
  model: 'test-model',
  apiKey: KEY,
  // Past the test's own hang guard: only a test about timeouts sets one that can fire (on a busy machine a short one
  // turns a late answer into a timeout).
  timeoutMs: 600_000,
  ...over,
});
const hello = [{ role: 'user' as const, content: 'hello' }];

async function failure(p: Promise<unknown>): Promise<ModelError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ModelError);
    return err as ModelError;
  }
  throw new Error('expected the request to fail');
}

describe('model client: answers', () => {
  it('a plain answer: text, usage, one attempt; the request carries model, messages, the key as Bearer', async () => {
    const srv = await serve([chat('hi there', { usage: { prompt_tokens: 7, completion_tokens: 3 } })]);
    const r = await createModelClient(target(srv, { temperature: 0.2, maxTokens: 64 })).chat({
      messages: hello,
      seed: 5,
    });
    expect(r.message).toEqual({ role: 'assistant', content: 'hi there', tool_calls: [] });
    expect(r.usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
    expect(r.attempts).toHaveLength(1);
    expect(r.endpoint).toBe('scripted');
    const req = srv.chatRequests()[0]!;
    expect(req.body).toMatchObject({ model: 'test-model', messages: hello, temperature: 0.2, max_tokens: 64, seed: 5 });
    expect(req.body).not.toHaveProperty('response_format');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('tool calls come back with arguments as JSON strings; malformed arguments are data, not a throw', async () => {
    const srv = await serve([
      toolCalls([
        { name: 'gmail_get_message', arguments: { message_id: 'msg_1' } },
        { name: 'helpdesk_update_ticket', arguments: '{"ticket_id": "TK-1", ' },
      ]),
    ]);
    const tools = [
      { type: 'function' as const, function: { name: 'gmail_get_message', parameters: { type: 'object' } } },
    ];
    const r = await createModelClient(target(srv)).chat({ messages: hello, tools });
    expect(srv.chatRequests()[0]!.body).toMatchObject({ tools, tool_choice: 'auto' });
    expect(r.finishReason).toBe('tool_calls');
    const [good, bad] = r.message.tool_calls;
    expect(good!.function).toEqual({ name: 'gmail_get_message', arguments: '{"message_id":"msg_1"}' });
    expect(parseToolArguments(good!)).toEqual({ ok: true, value: { message_id: 'msg_1' } });
    expect(bad!.function.arguments).toBe('{"ticket_id": "TK-1", ');
    expect(parseToolArguments(bad!)).toMatchObject({ ok: false, error: expect.stringContaining('not valid JSON') });
  });

  it('an answer passed back as the next turn is accepted: empty tool_calls not sent, tool results are', async () => {
    const srv = await serve([toolCalls([{ name: 'lookup', arguments: { q: 'x' } }]), chat('plain'), chat('done')]);
    const client = createModelClient(target(srv));
    const first = await client.chat({ messages: hello });
    const second = await client.chat({
      messages: [
        ...hello,
        first.message,
        { role: 'tool', tool_call_id: first.message.tool_calls[0]!.id, content: '{"ok":1}' },
      ],
    });
    await client.chat({ messages: [...hello, second.message, { role: 'user', content: 'and?' }] });
    const [, r2, r3] = srv.chatRequests();
    expect(r2!.body!.messages[1]).toMatchObject({ role: 'assistant', tool_calls: [{ function: { name: 'lookup' } }] });
    expect(r2!.body!.messages[2]).toEqual({
      role: 'tool',
      tool_call_id: first.message.tool_calls[0]!.id,
      content: '{"ok":1}',
    });
    expect(r3!.body!.messages[1]).toEqual({ role: 'assistant', content: 'plain' });
  });

  it('JSON mode asks for response_format json_object', async () => {
    const srv = await serve([chat('{"a": 1}')]);
    await createModelClient(target(srv)).chat({ messages: hello, jsonMode: true });
    expect(srv.chatRequests()[0]!.body!.response_format).toEqual({ type: 'json_object' });
  });

  it('no key: no Authorization header; OPENAI_API_KEY / OPENAI_BASE_URL in the environment are ignored', async () => {
    const srv = await serve([chat('ok')]);
    const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
    process.env.OPENAI_API_KEY = 'sk-from-the-environment';
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1';
    try {
      await createModelClient(target(srv, { apiKey: null })).chat({ messages: hello });
    } finally {
      for (const [k, v] of [
        ['OPENAI_API_KEY', saved.key],
        ['OPENAI_BASE_URL', saved.url],
      ] as const)
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
    const req = srv.chatRequests()[0]!;
    expect(req.headers.authorization).toBeUndefined();
    expect(JSON.stringify(req.headers)).not.toContain('sk-from-the-environment');
  });
});

describe('model client: retries', () => {
  it('429 with Retry-After (seconds) then success: waits what the server asked and reports both attempts', async () => {
    const srv = await serve([rateLimited('1'), chat('done')]);
    const r = await createModelClient(target(srv)).chat({ messages: hello });
    expect(r.message.content).toBe('done');
    expect(r.attempts.map((a) => [a.status, a.waited_ms])).toEqual([
      [429, 0],
      [200, 1000],
    ]);
    expect(r.latencyMs).toBeGreaterThanOrEqual(1000);
    expect(srv.chatRequests()).toHaveLength(2);
  });

  it('Retry-After as an HTTP date and retry-after-ms are read', () => {
    const now = Date.parse('2026-03-01T09:00:00Z');
    const h = (o: Record<string, string>) => new Headers(o);
    expect(retryAfterMs(h({ 'retry-after': 'Sun, 01 Mar 2026 09:00:02 GMT' }), now)).toBe(2000);
    expect(retryAfterMs(h({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(retryAfterMs(h({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(h({ 'retry-after': 'soon' }), now)).toBeUndefined();
  });

  it('500s are retried with backoff; past maxAttempts the last error is reported with every attempt', async () => {
    const srv = await serve([httpError(500), httpError(503), chat('third time')]);
    const client = createModelClient(target(srv), { retry: { baseDelayMs: 20 }, random: () => 0.5 });
    const r = await client.chat({ messages: hello });
    expect(r.attempts.map((a) => a.status)).toEqual([500, 503, 200]);
    expect(r.attempts.map((a) => a.waited_ms)).toEqual([0, 15, 30]);

    srv.push(httpError(500), httpError(502, { message: 'upstream down' }));
    const err = await failure(
      createModelClient(target(srv), { retry: { baseDelayMs: 10, maxAttempts: 2 } }).chat({ messages: hello }),
    );
    expect(err.kind).toBe('server_error');
    expect(err.attempts.map((a) => a.status)).toEqual([500, 502]);
    expect(err.message).toMatch(
      new RegExp(
        /^endpoint "scripted" \(http:\/\/127\.0\.0\.1:\d+\/v1, model test-model\): /.source +
          /server error \(HTTP 502: upstream down\)/.source,
      ),
    );
  });

  it('a Retry-After beyond the cap is not waited for: it fails at once, saying so', async () => {
    const srv = await serve([rateLimited('120'), chat('never')]);
    const err = await failure(
      createModelClient(target(srv), { retry: { retryAfterCapMs: 5000 } }).chat({ messages: hello }),
    );
    expect(err.kind).toBe('rate_limited');
    expect(err.message).toContain('asks to wait 120 s, more than the 5 s cap');
    expect(srv.chatRequests()).toHaveLength(1);
  });

  it('a transport error (the server hangs up) is retried', async () => {
    const srv = await serve([hangUp(), chat('back')]);
    const r = await createModelClient(target(srv), { retry: { baseDelayMs: 10 } }).chat({ messages: hello });
    expect(r.message.content).toBe('back');
    expect(r.attempts[0]).toMatchObject({ status: null, error: expect.stringContaining('cannot reach') });
  });

  it('400, 401, 403, 404 and a garbage body are not retried', async () => {
    const srv = await serve([httpError(400), httpError(401), httpError(403), httpError(404), garbage()]);
    const client = createModelClient(target(srv), { retry: { baseDelayMs: 10 } });
    const kinds = [];
    for (let i = 0; i < 5; i++) kinds.push((await failure(client.chat({ messages: hello }))).kind);
    expect(kinds).toEqual(['bad_request', 'key_refused', 'key_refused', 'not_found', 'bad_response']);
    expect(srv.chatRequests()).toHaveLength(5);
  });
});

describe('model client: timeouts, cancellation, errors', () => {
  it('an answer slower than the timeout fails as a timeout (not retried by default)', async () => {
    const srv = await serve([held()]); // never answered: the timeout must fire, whatever the machine's speed
    const err = await failure(createModelClient(target(srv, { timeoutMs: 1000 })).chat({ messages: hello }));
    expect(err.kind).toBe('timeout');
    expect(err.message).toContain('no answer within 1 s');
    expect(srv.chatRequests()).toHaveLength(1);
  });

  it('an abort during a Retry-After wait returns at once, without another request', async () => {
    // The server asks for an hour (under a raised cap): only the abort can end the wait before the test's hang guard.
    const srv = await serve([rateLimited('3600'), chat('never')]);
    const ctl = new AbortController();
    const p = createModelClient(target(srv), {
      retry: { retryAfterCapMs: 7_200_000 },
      // Called just before the wait begins: the abort comes once the wait is under way.
      onRetry: () => void setImmediate(() => ctl.abort()),
    }).chat({ messages: hello, signal: ctl.signal });
    const err = await failure(p);
    expect(err.kind).toBe('aborted');
    expect(srv.chatRequests()).toHaveLength(1);
    expect(err.attempts).toHaveLength(1);
  });

  it('an abort during a request ends it at once', async () => {
    // Never answered, and the timeout is past the test's hang guard: only the abort can end the request.
    const srv = await serve([held()]);
    const ctl = new AbortController();
    const p = createModelClient(target(srv)).chat({ messages: hello, signal: ctl.signal });
    await srv.chatsArrived(1);
    ctl.abort();
    expect((await failure(p)).kind).toBe('aborted');
  });

  it('an unreachable server is told apart; the message names the endpoint', async () => {
    const srv = await serve();
    await srv.close();
    const err = await failure(createModelClient(target(srv), { retry: { maxAttempts: 1 } }).chat({ messages: hello }));
    expect(err.kind).toBe('unreachable');
    expect(err.message).toContain('endpoint "scripted"');
    expect(err.message).toContain('connection refused');
  });

  it('the key never appears in an error, even when the server echoes it', async () => {
    const srv = await serve([httpError(401, { message: `Incorrect API key provided: ${KEY}` })]);
    const err = await failure(createModelClient(target(srv)).chat({ messages: hello }));
    expect(err.kind).toBe('key_refused');
    expect(err.message).toContain('Incorrect API key provided: [key]');
    expect(JSON.stringify({ ...err, message: err.message, stack: err.stack })).not.toContain(KEY);
  });
});
