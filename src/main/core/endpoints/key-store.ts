import type { KeySource } from '../../../shared/contract/endpoints.contract';
import { registerKnownKey } from '../lib/secrets/known-keys';

/**
 * Where API keys live — never in the workspace, logs, exports or error messages (DESIGN.md §10).
 *
 * - keychain: the desktop app hands the core a SecretStore backed by Electron's safeStorage (the
 *   encrypted blobs sit in the app's user-data folder, outside the workspace; see
 *   src/main/electron/safe-storage-secrets.ts). The CLI and browser mode have none.
 * - env: an environment variable; the endpoint stores the variable's NAME only.
 * - none: local servers that want no key (vLLM, Ollama, llama.cpp, LM Studio).
 *
 * Job workers cannot reach safeStorage (main process only): the job runner hands them the
 * decrypted keys in memory (workerData), never through the jobs table.
 */
export type SecretStore = {
  /** null when keys can be stored here; otherwise why not (shown to the user). */
  unavailableReason(): string | null;
  has(name: string): boolean;
  get(name: string): string | undefined;
  /** Throws (with a message free of the key) when it cannot store it. */
  set(name: string, key: string): void;
  delete(name: string): void;
  /** Every stored key, decrypted: for job workers only (in memory, never persisted). */
  exportAll(): Record<string, string>;
};

/** What the core resolves keys from. */
export type KeyAccess = {
  secrets: SecretStore | null;
  /** The environment keys are read from (the process's; tests and the CLI inject theirs). */
  env: Readonly<Record<string, string | undefined>>;
};

export const NO_KEYCHAIN =
  'no OS keychain here (CLI or browser mode): use an environment variable (key source env) or no key';

/** The default variable of an endpoint: COWORKENV_KEY_<NAME>, uppercased, other characters as _. */
export const defaultKeyEnv = (endpoint: string): string =>
  `COWORKENV_KEY_${endpoint.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

export type KeyRef = { name: string; key_source: KeySource; key_env: string | null };

export type KeyStatus = { present: boolean; where: string };

/** Where an endpoint's key is looked for and whether it is there — no key material. */
export function keyStatus(e: KeyRef, keys: KeyAccess): KeyStatus {
  switch (e.key_source) {
    case 'none':
      return { present: true, where: 'no key needed' };
    case 'env': {
      const v = e.key_env ?? defaultKeyEnv(e.name);
      const set = !!keys.env[v];
      return { present: set, where: `environment variable ${v}${set ? '' : ' (not set)'}` };
    }
    case 'keychain': {
      const why = keys.secrets?.unavailableReason() ?? NO_KEYCHAIN;
      if (!keys.secrets || keys.secrets.unavailableReason()) return { present: false, where: `OS keychain — ${why}` };
      const has = keys.secrets.has(e.name);
      return { present: has, where: `OS keychain${has ? '' : ' (no key stored)'}` };
    }
  }
}

/**
 * The key to send: a string, null for the `none` source, or a KeyMissing naming where it was
 * looked for. Callers pass the result straight to the model client and nowhere else. A key found is
 * registered for redaction in this thread (lib/secrets/known-keys.ts): a server may echo it back.
 */
export function resolveKey(e: KeyRef, keys: KeyAccess): string | null | KeyMissing {
  const key = lookUp(e, keys);
  if (typeof key === 'string') registerKnownKey(key);
  return key;
}

function lookUp(e: KeyRef, keys: KeyAccess): string | null | KeyMissing {
  if (e.key_source === 'none') return null;
  if (e.key_source === 'env') {
    const v = e.key_env ?? defaultKeyEnv(e.name);
    return keys.env[v] || new KeyMissing(e.name, `set the environment variable ${v}`);
  }
  const why = keys.secrets ? keys.secrets.unavailableReason() : NO_KEYCHAIN;
  if (why) return new KeyMissing(e.name, `its key is in the OS keychain, which is not usable: ${why}`);
  return (
    keys.secrets!.get(e.name) ?? new KeyMissing(e.name, 'no key is stored in the OS keychain; edit it in Settings')
  );
}

/**
 * Registers for redaction every key this thread could send: those of the configured endpoints, every
 * keychain key and every COWORKENV_KEY_* variable. Run when a core opens a workspace and when a job
 * worker starts, so text written before any model call (a job's result, an export) is covered too.
 */
export function registerConfiguredKeys(endpoints: readonly KeyRef[], keys: KeyAccess): void {
  for (const e of endpoints) resolveKey(e, keys);
  if (keys.secrets && !keys.secrets.unavailableReason())
    for (const k of Object.values(keys.secrets.exportAll())) registerKnownKey(k);
  for (const [name, value] of Object.entries(keys.env)) if (name.startsWith('COWORKENV_KEY_')) registerKnownKey(value);
}

export class KeyMissing {
  readonly message: string;
  constructor(
    readonly endpoint: string,
    hint: string,
  ) {
    this.message = `endpoint "${endpoint}" has no key: ${hint}`;
  }
}

/** A SecretStore held in memory: job workers (keys handed over by the main process) and tests. */
export function memorySecrets(initial: Record<string, string> = {}, reason: string | null = null): SecretStore {
  const keys = new Map(Object.entries(initial));
  return {
    unavailableReason: () => reason,
    has: (n) => keys.has(n),
    get: (n) => keys.get(n),
    set: (n, k) => void keys.set(n, k),
    delete: (n) => void keys.delete(n),
    exportAll: () => Object.fromEntries(keys),
  };
}
