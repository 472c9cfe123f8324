import type { EndpointTestResult, KeySource } from '../../../shared/contract/endpoints.contract';
import { AppError, notFound } from '../lib/errors';
import type { HandlerMap } from '../lib/handler-types';
import type { MutationContext } from '../context';
import { probeEndpoint } from './endpoint-probe';
import { endpointsRepo, endpointsWriter, endpointView, type EndpointRow } from './endpoints.repo';
import { defaultKeyEnv, NO_KEYCHAIN, type KeyAccess } from './key-store';

const bad = (message: string, field: string) => new AppError('INVALID_INPUT', message, [{ path: [field], message }]);

/**
 * Keys belong in the key source, not in the URL: refuse user:password@ and key-like query
 * parameters, which would otherwise sit in the workspace and in every run's record.
 */
function checkBaseUrl(url: string): string {
  const u = new URL(url);
  if (u.username || u.password)
    throw bad('the base URL carries credentials (user:password@); give the key through the key source', 'base_url');
  for (const k of u.searchParams.keys())
    if (/key|token|secret|auth|password/i.test(k))
      throw bad(`the base URL carries "${k}"; give the key through the key source, not the URL`, 'base_url');
  return url.replace(/\/+$/, '');
}

/** The key-source fields of a row after an add or update; throws when they do not fit together. */
function keyFields(
  name: string,
  source: KeySource,
  keyEnv: string | undefined,
  key: string | undefined,
  keys: KeyAccess,
  hasStoredKey: boolean,
): { key_env: string | null } {
  if (key !== undefined && source !== 'keychain')
    // Never echo the value: it may be a real key given in the wrong place.
    throw bad(
      source === 'env'
        ? `a key was given but the key source is env: keys of env endpoints are not stored; set ` +
            `${keyEnv ?? defaultKeyEnv(name)} instead`
        : 'a key was given but the key source is none',
      'key',
    );
  if (source === 'keychain') {
    const why = keys.secrets ? keys.secrets.unavailableReason() : NO_KEYCHAIN;
    if (why) throw bad(`the OS keychain cannot be used: ${why}`, 'key_source');
    if (key === undefined && !hasStoredKey) throw bad('the keychain source needs the key', 'key');
  }
  if (keyEnv !== undefined && source !== 'env') throw bad('key_env is only for the env key source', 'key_env');
  return { key_env: source === 'env' ? (keyEnv ?? defaultKeyEnv(name)) : null };
}

/** What a test could tell, as capabilities (untested leaves the known value). */
const detected = (status: EndpointTestResult['tool_calls'], prev: boolean | null) =>
  status === 'supported' ? true : status === 'unsupported' ? false : prev;

/** Keychain writes come last in a handler: if one throws, the transaction rolls the row back too. */
function storeKey(ctx: MutationContext, name: string, key: string | undefined, source: KeySource, prev?: KeySource) {
  const secrets = ctx.keys.secrets;
  if (source === 'keychain' && key !== undefined) secrets!.set(name, key);
  if (prev === 'keychain' && source !== 'keychain') secrets?.delete(name);
}

export const endpointsHandlers = {
  'endpoints.list': (_input, ctx) => {
    const keys = ctx.keys;
    const why = keys.secrets ? keys.secrets.unavailableReason() : NO_KEYCHAIN;
    return {
      endpoints: endpointsRepo(ctx.db)
        .list()
        .map((e) => endpointView(e, keys)),
      keychain: { available: why === null, reason: why ?? 'keys are encrypted by the OS keychain' },
    };
  },
  'endpoints.add': (input, ctx) => {
    const keys = ctx.keys;
    if (endpointsRepo(ctx.db).get(input.name))
      throw new AppError('CONFLICT', `an endpoint named "${input.name}" exists already (names ignore case)`);
    const now = ctx.now();
    const row: EndpointRow = {
      name: input.name,
      base_url: checkBaseUrl(input.base_url),
      model: input.model,
      key_source: input.key_source,
      ...keyFields(input.name, input.key_source, input.key_env, input.key, keys, false),
      temperature: input.temperature,
      max_tokens: input.max_tokens,
      timeout_ms: input.timeout_ms,
      json_mode: input.json_mode,
      tool_calls: input.tool_calls,
      last_test: null,
      created_at: now,
      updated_at: now,
    };
    endpointsWriter(ctx.db).insert(row);
    storeKey(ctx, row.name, input.key, row.key_source);
    ctx.touch('endpoints');
    return endpointView(row, keys);
  },
  'endpoints.update': (input, ctx) => {
    const keys = ctx.keys;
    const prev = endpointsRepo(ctx.db).get(input.name);
    if (!prev) throw notFound(`endpoint "${input.name}"`);
    const source = input.key_source ?? prev.key_source;
    const keepEnv =
      input.key_env ?? (source === 'env' && prev.key_source === 'env' ? (prev.key_env ?? undefined) : undefined);
    const stored = prev.key_source === 'keychain' && !!keys.secrets?.has(prev.name);
    const t = input.last_test;
    const row: EndpointRow = {
      ...prev,
      base_url: input.base_url !== undefined ? checkBaseUrl(input.base_url) : prev.base_url,
      model: input.model ?? prev.model,
      key_source: source,
      ...keyFields(prev.name, source, keepEnv, input.key, keys, stored),
      temperature: input.temperature !== undefined ? input.temperature : prev.temperature,
      max_tokens: input.max_tokens !== undefined ? input.max_tokens : prev.max_tokens,
      timeout_ms: input.timeout_ms ?? prev.timeout_ms,
      json_mode:
        input.json_mode !== undefined ? input.json_mode : t ? detected(t.json_mode, prev.json_mode) : prev.json_mode,
      tool_calls:
        input.tool_calls !== undefined
          ? input.tool_calls
          : t
            ? detected(t.tool_calls, prev.tool_calls)
            : prev.tool_calls,
      last_test: t ?? prev.last_test,
      updated_at: ctx.now(),
    };
    endpointsWriter(ctx.db).update(row);
    storeKey(ctx, prev.name, input.key, source, prev.key_source);
    ctx.touch('endpoints');
    return endpointView(row, keys);
  },
  'endpoints.remove': (input, ctx) => {
    const prev = endpointsRepo(ctx.db).get(input.name);
    if (!prev) return { removed: false };
    endpointsWriter(ctx.db).remove(prev.name);
    if (prev.key_source === 'keychain') ctx.keys.secrets?.delete(prev.name);
    ctx.touch('endpoints');
    return { removed: true };
  },
  'endpoints.test': async (input, ctx) => {
    const e = endpointsRepo(ctx.db).get(input.name);
    if (!e) throw notFound(`endpoint "${input.name}"`);
    return probeEndpoint(e, ctx.keys, ctx.now());
  },
} satisfies Partial<HandlerMap>;
