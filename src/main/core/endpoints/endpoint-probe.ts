import type { EndpointTestResult } from '../../../shared/contract/endpoints.contract';
import type { ToolSpec } from '../agents/chat-types';
import type { ModelClient, ModelError, ModelErrorKind } from '../agents/model-client';
import { modelClientFor } from './client-for';
import type { EndpointRow } from './endpoints.repo';
import type { KeyAccess } from './key-store';

type Problem = NonNullable<EndpointTestResult['problem']>;
const PROBLEM: Record<ModelErrorKind, Problem> = {
  no_key: 'no_key',
  unreachable: 'unreachable',
  aborted: 'unreachable',
  timeout: 'timeout',
  key_refused: 'key_refused',
  not_found: 'model_not_found',
  rate_limited: 'rate_limited',
  server_error: 'server_error',
  bad_request: 'bad_request',
  bad_response: 'bad_response',
};

/** The tiny tool offered to see whether tool calls come back as tool calls. */
const PING: ToolSpec = {
  type: 'function',
  function: {
    name: 'ping',
    description: 'Answers pong. Call it when asked to ping.',
    parameters: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] },
  },
};

/**
 * endpoints.test: one plain chat request (reachable? key accepted? model served? latency), then —
 * only when that worked — a tool-call probe and a JSON-mode probe. One attempt each (a test should
 * answer quickly and say what it saw, not retry past it).
 */
export async function probeEndpoint(e: EndpointRow, keys: KeyAccess, at: string): Promise<EndpointTestResult> {
  const untested = { tool_calls: 'untested', json_mode: 'untested' } as const;
  let client: ModelClient;
  try {
    client = modelClientFor(e, keys, { retry: { maxAttempts: 1 } });
  } catch (err) {
    return {
      ok: false,
      at,
      problem: 'no_key',
      message: (err as Error).message,
      latency_ms: null,
      ...untested,
      tool_calls_detail: '',
      json_mode_detail: '',
    };
  }
  let latency: number;
  try {
    const r = await client.chat({
      messages: [{ role: 'user', content: 'Reply with the single word: pong' }],
      maxTokens: 32,
    });
    latency = r.latencyMs;
  } catch (err) {
    const me = err as ModelError;
    const base = { ok: false, at, latency_ms: null, ...untested, tool_calls_detail: '', json_mode_detail: '' };
    if (me.kind === 'not_found') return { ...base, ...(await diagnose404(client, me)) };
    return { ...base, problem: PROBLEM[me.kind] ?? 'bad_response', message: me.message };
  }
  const tools = await probeTools(client);
  const json = await probeJson(client);
  return {
    ok: true,
    at,
    problem: null,
    latency_ms: latency,
    message: `answered in ${latency} ms; tool calls ${tools.status}; JSON mode ${json.status}`,
    tool_calls: tools.status,
    tool_calls_detail: tools.detail,
    json_mode: json.status,
    json_mode_detail: json.detail,
  };
}

/** A 404: the model is not served (the server's list says which are), or the base URL's path is wrong. */
async function diagnose404(client: ModelClient, err: ModelError) {
  const model = client.endpoint.model;
  try {
    const models = await client.listModels();
    if (models.includes(model))
      return {
        problem: 'model_not_found' as const,
        message:
          `${err.message} — the server lists "${model}", so the chat path is wrong: check the base URL ` +
          `(most end in /v1)`,
      };
    const shown = models.length ? models.slice(0, 20).join(', ') : 'none';
    return {
      problem: 'model_not_found' as const,
      message:
        `endpoint "${client.endpoint.name}": the model "${model}" is not served at ` +
        `${client.endpoint.baseUrl}; it serves: ${shown}`,
      models: models.slice(0, 200),
    };
  } catch {
    return { problem: 'model_not_found' as const, message: err.message };
  }
}

type Probe = { status: 'supported' | 'unsupported' | 'untested'; detail: string };

/** A refusal of the feature itself (400/422) means unsupported; anything else leaves it untested. */
const refused = (err: unknown, what: string): Probe => {
  const me = err as ModelError;
  return me.kind === 'bad_request'
    ? { status: 'unsupported', detail: `the server refused a request with ${what}: ${me.detail}` }
    : { status: 'untested', detail: `could not tell: ${me.detail}` };
};

async function probeTools(client: ModelClient): Promise<Probe> {
  try {
    const r = await client.chat({
      messages: [{ role: 'user', content: 'Call the ping tool with value "ok". Do not answer in text.' }],
      tools: [PING],
      maxTokens: 256,
    });
    const call = r.message.tool_calls.find((c) => c.function.name === 'ping');
    if (call) return { status: 'supported', detail: `the model called ping(${call.function.arguments.slice(0, 80)})` };
    if (r.message.tool_calls.length)
      return { status: 'supported', detail: `the model called ${r.message.tool_calls[0]!.function.name} (not ping)` };
    return {
      status: 'unsupported',
      detail:
        'offered a tool, the model answered in text instead — the server may need tool parsing turned on (vLLM: ' +
        '--enable-auto-tool-choice --tool-call-parser …)',
    };
  } catch (err) {
    return refused(err, 'tools');
  }
}

async function probeJson(client: ModelClient): Promise<Probe> {
  try {
    const r = await client.chat({
      messages: [{ role: 'user', content: 'Answer with the JSON object {"ok": true} and nothing else.' }],
      jsonMode: true,
      maxTokens: 256,
    });
    const text = (r.message.content ?? '').trim();
    try {
      const v: unknown = JSON.parse(text);
      if (v && typeof v === 'object' && !Array.isArray(v))
        return { status: 'supported', detail: 'answered a JSON object' };
    } catch {
      // fall through: accepted the option but did not honour it
    }
    return {
      status: 'unsupported',
      detail: `accepted response_format json_object but answered ${JSON.stringify(text.slice(0, 60))}`,
    };
  } catch (err) {
    return refused(err, 'response_format json_object');
  }
}
