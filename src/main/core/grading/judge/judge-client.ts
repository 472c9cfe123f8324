import type { ModelClient, ModelClientOptions } from '../../agents/model-client';
import { ModelError } from '../../agents/model-error';
import { modelClientFor } from '../../endpoints/client-for';
import type { EndpointRow } from '../../endpoints/endpoints.repo';
import type { KeyAccess } from '../../endpoints/key-store';

/** A client whose every request fails with `err` (the judge endpoint cannot be used: no key). */
export const failingClient = (err: ModelError): ModelClient => ({
  endpoint: err.endpoint,
  capabilities: { jsonMode: null, toolCalls: null },
  chat: () => Promise.reject(err),
  listModels: () => Promise.reject(err),
});

/**
 * The judge endpoint's client, its key resolved here (in the worker: from the keychain secrets the main process
 * handed over, or the environment) and kept in memory only. An endpoint whose key is missing still gives a client,
 * whose every request fails with that reason: the checks stay pending and say why, nothing else stops.
 */
export function judgeClient(e: EndpointRow, keys: KeyAccess, o: ModelClientOptions = {}): ModelClient {
  try {
    return modelClientFor(e, keys, o);
  } catch (err) {
    if (!(err instanceof ModelError)) throw err;
    return failingClient(err);
  }
}
