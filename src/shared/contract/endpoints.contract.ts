import { z } from 'zod';
import { mutation, query } from './define';

/**
 * Model endpoints: OpenAI-compatible chat-completions servers (vLLM, Ollama, llama.cpp, LM Studio,
 * a hosted API) shared by the LLM generator, teachers, students, judges and simulated users.
 * An endpoint is stored WITHOUT its key: the row says only where the key comes from.
 */
export const KeySource = z
  .enum(['keychain', 'env', 'none'])
  .describe(
    'keychain: encrypted by the OS keychain (desktop app); env: an environment variable, by name; none: no key ' +
      '(local servers)',
  );
export type KeySource = z.infer<typeof KeySource>;

export const EndpointName = z
  .string()
  .trim()
  .min(1, 'required')
  .max(64, 'at most 64 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, _ . - (it names the endpoint in runs and exports)');

/** An environment variable's NAME (never its value). */
export const EnvVarName = z
  .string()
  .trim()
  .max(128, 'at most 128 characters')
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'the NAME of an environment variable (e.g. OPENAI_API_KEY), not the key itself');

const BaseUrl = z
  .string()
  .trim()
  .min(1, 'required')
  .max(2000)
  .refine((s) => {
    try {
      return ['http:', 'https:'].includes(new URL(s).protocol);
    } catch {
      return false;
    }
  }, 'an http(s) URL such as http://127.0.0.1:8000/v1');

/** Whether the server does it: null until `endpoints.test` found out (or the user said). */
const Capability = z.boolean().nullable();

/** What `endpoints.test` found. */
export const EndpointTestResult = z.object({
  ok: z.boolean(),
  at: z.string(),
  /** What went wrong, told apart (null when ok). */
  problem: z
    .enum([
      'no_key',
      'unreachable',
      'key_refused',
      'model_not_found',
      'timeout',
      'rate_limited',
      'server_error',
      'bad_response',
      'bad_request',
    ])
    .nullable(),
  message: z.string(),
  /** Latency of the plain chat request, ms. */
  latency_ms: z.number().nullable(),
  tool_calls: z.enum(['supported', 'unsupported', 'untested']),
  tool_calls_detail: z.string(),
  json_mode: z.enum(['supported', 'unsupported', 'untested']),
  json_mode_detail: z.string(),
  /** The models the server lists, when it lists them and the configured one was not found. */
  models: z.array(z.string()).optional(),
});
export type EndpointTestResult = z.infer<typeof EndpointTestResult>;

/** An endpoint as every transport shows it: the key's source and presence, never the key. */
export const Endpoint = z.object({
  name: z.string(),
  base_url: z.string(),
  model: z.string(),
  key_source: KeySource,
  /** env source: the variable's NAME. */
  key_env: z.string().nullable(),
  temperature: z.number().nullable(),
  max_tokens: z.number().int().nullable(),
  timeout_ms: z.number().int(),
  json_mode: Capability,
  tool_calls: Capability,
  last_test: EndpointTestResult.nullable(),
  /** Whether the key can be found right now, and where it is looked for (no key material). */
  key: z.object({ present: z.boolean(), where: z.string() }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Endpoint = z.infer<typeof Endpoint>;

const Settings = {
  base_url: BaseUrl,
  model: z.string().trim().min(1, 'required').max(300),
  temperature: z.number().min(0).max(2).nullable(),
  max_tokens: z.number().int().min(1).max(1_000_000).nullable(),
  timeout_ms: z.number().int().min(1000, 'at least 1000 ms').max(3_600_000, 'at most one hour'),
  json_mode: Capability,
  tool_calls: Capability,
};

/**
 * The key itself, accepted only for the keychain source and only on its way in: it is encrypted
 * by the OS keychain at once and never stored in the workspace or answered back.
 */
const KeyInput = z.string().min(1).max(10_000).optional();

export const EndpointAddInput = z.object({
  name: EndpointName,
  base_url: Settings.base_url,
  model: Settings.model,
  key_source: KeySource,
  /** env source: the variable's name; default COWORKENV_KEY_<NAME>. */
  key_env: EnvVarName.optional(),
  key: KeyInput,
  temperature: Settings.temperature.default(null),
  max_tokens: Settings.max_tokens.default(null),
  timeout_ms: Settings.timeout_ms.default(60_000),
  json_mode: Capability.default(null),
  tool_calls: Capability.default(null),
});
export type EndpointAddInput = z.input<typeof EndpointAddInput>;

export const EndpointUpdateInput = z.object({
  name: EndpointName,
  base_url: Settings.base_url.optional(),
  model: Settings.model.optional(),
  temperature: Settings.temperature.optional(),
  max_tokens: Settings.max_tokens.optional(),
  timeout_ms: Settings.timeout_ms.optional(),
  json_mode: Capability.optional(),
  tool_calls: Capability.optional(),
  key_source: KeySource.optional(),
  key_env: EnvVarName.optional(),
  /** keychain source: replaces the stored key. */
  key: KeyInput,
  /** Keep what `endpoints.test` found: its result, and json_mode / tool_calls when it could tell. */
  last_test: EndpointTestResult.optional(),
});
export type EndpointUpdateInput = z.input<typeof EndpointUpdateInput>;

export const endpointsContract = {
  'endpoints.list': query({
    summary:
      'Model endpoints (name, base URL, model, defaults, detected capabilities) with where each key comes from and ' +
      'whether it is present — never the key.',
    input: z.object({}).default({}),
    output: z.object({
      endpoints: z.array(Endpoint),
      /** Whether keys can be kept in the OS keychain here (the desktop app), and why not. */
      keychain: z.object({ available: z.boolean(), reason: z.string() }),
    }),
  }),
  'endpoints.add': mutation({
    summary:
      'Add a model endpoint. Key source: keychain (desktop app; pass key, encrypted by the OS keychain outside the ' +
      'workspace), env (an environment variable by name, default COWORKENV_KEY_<NAME>) or none.',
    input: EndpointAddInput,
    output: Endpoint,
  }),
  'endpoints.update': mutation({
    summary:
      "Change an endpoint's settings, key source or keychain key; last_test keeps an endpoints.test result and its " +
      'detected capabilities.',
    input: EndpointUpdateInput,
    output: Endpoint,
  }),
  'endpoints.remove': mutation({
    summary: 'Remove an endpoint and its keychain key (runs keep the endpoint name they recorded).',
    input: z.object({ name: EndpointName }),
    output: z.object({ removed: z.boolean() }),
  }),
  'endpoints.test': query({
    summary:
      'Send one tiny chat request to an endpoint: latency, and whether tool calls and JSON mode work; tells ' +
      'unreachable, refused key (401/403) and unknown model (404) apart. Save the result with endpoints.update ' +
      '{last_test}.',
    input: z.object({ name: EndpointName }),
    output: EndpointTestResult,
  }),
} as const;
