import { createModelClient, ModelError, type ModelClient, type ModelClientOptions } from '../agents/model-client';
import type { EndpointRow } from './endpoints.repo';
import { KeyMissing, resolveKey, type KeyAccess } from './key-store';

/**
 * A model client for a stored endpoint, its key resolved now (keychain, environment or none) and
 * held only by the client. Throws ModelError 'no_key' naming where the key was looked for.
 * Generator, runs, judge and simulated user all get their client here.
 */
export function modelClientFor(e: EndpointRow, keys: KeyAccess, o: ModelClientOptions = {}): ModelClient {
  const key = resolveKey(e, keys);
  if (key instanceof KeyMissing)
    throw new ModelError(
      'no_key',
      { name: e.name, baseUrl: e.base_url, model: e.model },
      key.message.replace(/^endpoint "[^"]*" /, ''),
    );
  return createModelClient(
    {
      name: e.name,
      baseUrl: e.base_url,
      model: e.model,
      apiKey: key,
      timeoutMs: e.timeout_ms,
      temperature: e.temperature,
      maxTokens: e.max_tokens,
      jsonMode: e.json_mode,
      toolCalls: e.tool_calls,
    },
    o,
  );
}
