import OpenAI, { type APIError } from 'openai';
import { z } from 'zod';
import type { Attempt, ChatRequest, ChatResult, ToolCall } from './chat-types';
import { classify, ModelError, RETRYABLE, type EndpointLabel } from './model-error';
import { backoffMs, DEFAULT_RETRY, retryAfterMs, sleep, type RetryPolicy } from './retry';
import { registerKnownKey, withoutKnownKeys as scrub } from '../lib/secrets/known-keys';

export { ModelError } from './model-error';
export type { ModelErrorKind } from './model-error';

/** An endpoint ready to call: its settings and the key resolved for this call (never stored with it). */
export type ModelTarget = {
  name: string;
  baseUrl: string;
  model: string;
  /** null: the server wants no key; no Authorization header is sent. */
  apiKey: string | null;
  timeoutMs: number;
  temperature?: number | null;
  maxTokens?: number | null;
  /** What the endpoint is known to support (null: unknown). */
  jsonMode?: boolean | null;
  toolCalls?: boolean | null;
};

export type ModelClientOptions = {
  retry?: Partial<RetryPolicy>;
  /** Jitter source (tests pin it). */
  random?: () => number;
  /** Called before each wait between attempts (progress, logs). */
  onRetry?: (info: { attempt: number; waitMs: number; error: ModelError }) => void;
};

export type ModelClient = {
  readonly endpoint: EndpointLabel;
  readonly capabilities: { jsonMode: boolean | null; toolCalls: boolean | null };
  /** One chat completion, retried on 429/5xx/transport errors; throws ModelError. */
  chat(req: ChatRequest): Promise<ChatResult>;
  /** The model ids the server lists (GET /models), one attempt. */
  listModels(signal?: AbortSignal): Promise<string[]>;
};

/** What we need of an answer; servers add fields, and some leave usage out. */
const Completion = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullable().optional(),
        message: z.object({
          content: z.string().nullable().optional(),
          reasoning_content: z.string().nullable().optional(),
          reasoning: z.string().nullable().optional(),
          tool_calls: z
            .array(
              z.object({
                id: z.string().optional(),
                function: z.object({
                  name: z.string(),
                  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]),
                }),
              }),
            )
            .nullable()
            .optional(),
        }),
      }),
    )
    .min(1),
  usage: z
    .object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number().optional() })
    .nullable()
    .optional(),
});

/**
 * The one way the app talks to a model (generator, teacher/student runs, simulated user, judge).
 * Hazards handled here so callers need not: the openai package reads OPENAI_* environment variables
 * when options are missing (so every option is given: no env key leaks to a local server), retries
 * on its own unless maxRetries is 0, and its timers may outlive an abort (we race our own).
 */
export function createModelClient(t: ModelTarget, o: ModelClientOptions = {}): ModelClient {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...o.retry };
  const random = o.random ?? Math.random;
  const label: EndpointLabel = { name: t.name, baseUrl: t.baseUrl, model: t.model };
  registerKnownKey(t.apiKey);
  const sdk = new OpenAI({
    baseURL: t.baseUrl,
    // The SDK insists on a key; with none, a placeholder is set and the header then removed.
    apiKey: t.apiKey ?? 'no-key',
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: 0,
    timeout: t.timeoutMs + 60_000,
    logLevel: 'off',
    ...(t.apiKey === null ? { defaultHeaders: { Authorization: null } } : {}),
  });

  /** One HTTP attempt under its own timer, abortable at once by the caller's signal. */
  async function attempt<T>(
    run: (signal: AbortSignal) => Promise<T>,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    const ctl = new AbortController();
    const flags = { timedOut: false, aborted: false, timeoutMs, now: Date.now() };
    const timer = setTimeout(() => ((flags.timedOut = true), ctl.abort()), timeoutMs);
    const onAbort = () => ((flags.aborted = true), ctl.abort());
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const stopped = new Promise<never>((_, reject) =>
      ctl.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true }),
    );
    const call = run(ctl.signal);
    call.catch(() => {}); // settled after a lost race: not an unhandled rejection
    stopped.catch(() => {});
    try {
      return await Promise.race([call, stopped]);
    } catch (err) {
      throw classify(err, label, t.apiKey, flags, (e: APIError) => retryAfterMs(e.headers, Date.now()));
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async function chat(req: ChatRequest): Promise<ChatResult> {
    const start = Date.now();
    const timeoutMs = req.timeoutMs ?? t.timeoutMs;
    const attempts: Attempt[] = [];
    const temperature = req.temperature ?? t.temperature ?? undefined;
    const maxTokens = req.maxTokens ?? t.maxTokens ?? undefined;
    const body = {
      model: t.model,
      // An assistant turn passed back as the client answered it may carry `tool_calls: []`, which
      // OpenAI's API refuses (minimum length 1): send it without the key.
      messages: req.messages.map((m) =>
        m.role === 'assistant' && m.tool_calls?.length === 0 ? { role: m.role, content: m.content } : m,
      ),
      ...(req.tools?.length ? { tools: req.tools, tool_choice: req.toolChoice ?? 'auto' } : {}),
      ...(req.jsonMode ? { response_format: { type: 'json_object' as const } } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
      ...(req.seed !== undefined ? { seed: req.seed } : {}),
    };
    let waited = 0;
    for (let n = 1; ; n++) {
      const began = Date.now();
      try {
        const raw = await attempt(
          // The SDK's own timer sits past ours, so ours decides (and says "timeout" with our figure).
          (signal) =>
            sdk.chat.completions.create(body as never, {
              signal,
              maxRetries: 0,
              timeout: timeoutMs + 60_000,
            }) as Promise<unknown>,
          timeoutMs,
          req.signal,
        );
        const parsed = Completion.safeParse(raw);
        if (!parsed.success)
          throw new ModelError(
            'bad_response',
            label,
            typeof raw === 'string'
              ? `the answer is not JSON (starts with ${JSON.stringify(raw.slice(0, 60))})`
              : `the answer is not a chat completion (${parsed.error.issues[0]?.path.join('.') || 'body'}: ` +
                  `${parsed.error.issues[0]?.message})`,
          );
        attempts.push({ attempt: n, status: 200, error: null, latency_ms: Date.now() - began, waited_ms: waited });
        return toResult(parsed.data, attempts, Date.now() - start);
      } catch (e) {
        const err = e as ModelError;
        attempts.push({
          attempt: n,
          status: err.status,
          error: err.detail,
          latency_ms: Date.now() - began,
          waited_ms: waited,
        });
        const retryable = RETRYABLE.has(err.kind) || (err.kind === 'timeout' && policy.retryTimeouts);
        if (!retryable || n >= policy.maxAttempts) throw err.withAttempts(attempts);
        if (err.retryAfterMs !== undefined && err.retryAfterMs > policy.retryAfterCapMs)
          throw new ModelError(
            err.kind,
            label,
            `${err.detail}; the server asks to wait ${Math.ceil(err.retryAfterMs / 1000)} s, more than the ` +
              `${Math.round(policy.retryAfterCapMs / 1000)} s cap — try later`,
            err.status,
            attempts,
            err.retryAfterMs,
          );
        waited = err.retryAfterMs ?? backoffMs(n, policy, random);
        o.onRetry?.({ attempt: n, waitMs: waited, error: err });
        try {
          await sleep(waited, req.signal);
        } catch {
          throw new ModelError('aborted', label, 'the request was cancelled', null, attempts);
        }
      }
    }
  }

  /**
   * The answer as every caller sees it: with the configured keys replaced (a server may echo the key it was
   * sent, and the answer goes into trajectories, lineage, tool calls and the next prompt).
   */
  function toResult(c: z.infer<typeof Completion>, attempts: Attempt[], latencyMs: number): ChatResult {
    const choice = c.choices[0]!;
    const calls: ToolCall[] = (choice.message.tool_calls ?? []).map((tc, i) => ({
      id: scrub(tc.id ?? `call_${i}`),
      type: 'function',
      // Some servers send arguments as an object; the wire format (and our trajectories) keep a string.
      function: {
        name: scrub(tc.function.name),
        arguments: scrub(
          typeof tc.function.arguments === 'string' ? tc.function.arguments : JSON.stringify(tc.function.arguments),
        ),
      },
    }));
    const u = c.usage;
    const reasoning = choice.message.reasoning_content || choice.message.reasoning;
    const content = choice.message.content ?? null;
    return {
      message: {
        role: 'assistant',
        content: content === null ? null : scrub(content),
        tool_calls: calls,
        ...(reasoning ? { reasoning: scrub(reasoning) } : {}),
      },
      finishReason: choice.finish_reason ?? null,
      usage: u
        ? {
            prompt_tokens: u.prompt_tokens,
            completion_tokens: u.completion_tokens,
            total_tokens: u.total_tokens ?? u.prompt_tokens + u.completion_tokens,
          }
        : null,
      latencyMs,
      attempts,
      model: c.model ? scrub(c.model) : t.model,
      endpoint: t.name,
    };
  }

  async function listModels(signal?: AbortSignal): Promise<string[]> {
    return attempt(
      async (s) => {
        const page = await sdk.models.list({ signal: s, maxRetries: 0 });
        return page.data.map((m) => m.id);
      },
      t.timeoutMs,
      signal,
    );
  }

  return {
    endpoint: label,
    capabilities: { jsonMode: t.jsonMode ?? null, toolCalls: t.toolCalls ?? null },
    chat,
    listModels,
  };
}

/** Whether `err` came from a cancelled signal (callers stop quietly instead of reporting a failure). */
export const isAbort = (err: unknown): boolean => err instanceof ModelError && err.kind === 'aborted';
