import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { Attempt } from './chat-types';
import { scrubKnownKeys } from '../lib/secrets/known-keys';

/**
 * What went wrong with a model request, told apart so callers and users can act: an unreachable
 * server is not a refused key is not a wrong model name.
 */
export type ModelErrorKind =
  | 'no_key'
  | 'unreachable'
  | 'timeout'
  | 'aborted'
  | 'key_refused'
  | 'not_found'
  | 'rate_limited'
  | 'server_error'
  | 'bad_request'
  | 'bad_response';

/** Failures worth another attempt (the brief: 429, 5xx, transport; timeouts only when the policy says). */
export const RETRYABLE: ReadonlySet<ModelErrorKind> = new Set(['unreachable', 'rate_limited', 'server_error']);

/** Who an error is about: the endpoint by name, URL and model — never its key. */
export type EndpointLabel = { name: string; baseUrl: string; model: string };

/**
 * A model request that failed. The message names the endpoint and never the key: every text that
 * came from the server passes through redact() first (a server may echo the key it refused).
 */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    readonly endpoint: EndpointLabel,
    readonly detail: string,
    readonly status: number | null = null,
    readonly attempts: Attempt[] = [],
    /** The wait the server asked for, ms (429/503 with Retry-After). */
    readonly retryAfterMs?: number,
  ) {
    super(`endpoint "${endpoint.name}" (${endpoint.baseUrl}, model ${endpoint.model}): ${detail}`);
    this.name = 'ModelError';
  }
  withAttempts(attempts: Attempt[]): ModelError {
    return new ModelError(this.kind, this.endpoint, this.detail, this.status, attempts, this.retryAfterMs);
  }
}

/** Replaces every occurrence of the key (and of its Bearer header), and of every other configured key, in a text. */
export function redact(text: string, key: string | null): string {
  const out = !key || key.length < 4 ? text : text.split(key).join('[key]');
  return scrubKnownKeys(out, '[key]').text;
}

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** The server's own words from an APIError: `error.message` of the body when it has one. */
function serverText(err: APIError): string {
  const body = err.error as { message?: unknown } | string | undefined;
  if (typeof body === 'string') return body;
  if (body && typeof body.message === 'string') return body.message;
  return err.message.replace(/^\d{3}\s*/, '');
}

/** The code of a transport failure (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET…), looked up the cause chain. */
function causeCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as never, i++)
    if (typeof e.code === 'string') return e.code;
  return undefined;
}

/**
 * An error thrown by one attempt as a ModelError. `timedOut` and `aborted` are our own flags: the
 * attempt's controller was aborted by the per-request timer or by the caller's signal.
 */
export function classify(
  err: unknown,
  ep: EndpointLabel,
  key: string | null,
  flags: { timedOut: boolean; aborted: boolean; timeoutMs: number; now: number },
  retryAfter: (e: APIError) => number | undefined,
): ModelError {
  if (err instanceof ModelError) return err;
  if (flags.aborted) return new ModelError('aborted', ep, 'the request was cancelled');
  if (flags.timedOut || err instanceof APIConnectionTimeoutError)
    return new ModelError('timeout', ep, `no answer within ${Math.round(flags.timeoutMs / 1000)} s (the timeout)`);
  if (err instanceof APIUserAbortError) return new ModelError('aborted', ep, 'the request was cancelled');
  if (err instanceof APIConnectionError) {
    const code = causeCode(err);
    const what =
      code === 'ECONNREFUSED'
        ? 'connection refused — is the server running, and is the port right?'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'the host name does not resolve'
          : `the connection failed${code ? ` (${code})` : ''} before an answer came`;
    return new ModelError('unreachable', ep, `cannot reach ${ep.baseUrl}: ${what}`);
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    const s = err.status;
    const said = clip(redact(serverText(err), key));
    if (s === 401 || s === 403) return new ModelError('key_refused', ep, `the key was refused (HTTP ${s}: ${said})`, s);
    if (s === 404)
      return new ModelError(
        'not_found',
        ep,
        `HTTP 404: the model "${ep.model}" is not served there, or the base URL's path is wrong (most servers end ` +
          `in /v1) — ${said}`,
        s,
      );
    if (s === 429)
      return new ModelError('rate_limited', ep, `rate limited (HTTP 429: ${said})`, s, [], retryAfter(err));
    if (s >= 500)
      return new ModelError('server_error', ep, `server error (HTTP ${s}: ${said})`, s, [], retryAfter(err));
    return new ModelError('bad_request', ep, `the server refused the request (HTTP ${s}: ${said})`, s);
  }
  if (err instanceof SyntaxError)
    return new ModelError('bad_response', ep, `the answer is not valid JSON: ${clip(redact(err.message, key))}`);
  return new ModelError('bad_response', ep, clip(redact((err as Error)?.message ?? String(err), key)));
}
