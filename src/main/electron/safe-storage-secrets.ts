import fs from 'node:fs';
import path from 'node:path';
import type { safeStorage as ElectronSafeStorage } from 'electron';
import type { SecretStore } from '../core/endpoints/key-store';

/** The part of Electron's safeStorage we use (tests pass a fake). */
export type SafeStorageLike = Pick<
  typeof ElectronSafeStorage,
  'isEncryptionAvailable' | 'encryptString' | 'decryptString'
> & { getSelectedStorageBackend?: () => string };

type KeyFile = { version: 1; keys: Record<string, string> };

/**
 * Endpoint keys for the desktop app: each key encrypted by the OS keychain (Electron safeStorage:
 * Keychain on macOS, DPAPI on Windows, libsecret/kwallet on Linux) and kept as base64 in one JSON
 * file in the app's user-data folder — outside the workspace, so a shared or exported workspace
 * never carries a key. The file is written atomically (temp + rename) and readable by the user only.
 *
 * Hazards: safeStorage works only after app 'ready' (createCore runs after it); on Linux without a
 * keyring it falls back to 'basic_text' (a hard-coded password): we refuse that rather than store a
 * key that is merely obfuscated, and say to use an environment variable instead.
 */
export function safeStorageSecrets(safe: SafeStorageLike, file: string): SecretStore {
  let cache: KeyFile | undefined;

  const read = (): KeyFile => {
    if (cache) return cache;
    if (!fs.existsSync(file)) return (cache = { version: 1, keys: {} });
    try {
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<KeyFile>;
      cache = { version: 1, keys: parsed.keys && typeof parsed.keys === 'object' ? { ...parsed.keys } : {} };
    } catch (err) {
      throw new Error(`cannot read the key store ${file}: ${(err as Error).message}`);
    }
    return cache;
  };

  const write = (next: KeyFile) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(tmp, file);
    cache = next;
  };

  const unavailableReason = (): string | null => {
    if (!safe.isEncryptionAvailable()) return 'the OS keychain is not available to the app (Electron safeStorage)';
    if (safe.getSelectedStorageBackend?.() === 'basic_text')
      return (
        'no OS keyring was found (gnome-keyring / kwallet); a key would only be obfuscated — use an ' +
        'environment variable'
      );
    return null;
  };

  const get = (name: string): string | undefined => {
    const blob = read().keys[name];
    if (blob === undefined) return undefined;
    try {
      return safe.decryptString(Buffer.from(blob, 'base64'));
    } catch {
      // Encrypted under another OS user or a reset keychain: treat as missing, the user re-enters it.
      return undefined;
    }
  };

  return {
    unavailableReason,
    has: (name) => Object.hasOwn(read().keys, name),
    get,
    set(name, key) {
      const why = unavailableReason();
      if (why) throw new Error(`cannot store the key of "${name}": ${why}`);
      const current = read();
      write({ version: 1, keys: { ...current.keys, [name]: safe.encryptString(key).toString('base64') } });
    },
    delete(name) {
      const current = read();
      if (!Object.hasOwn(current.keys, name)) return;
      const { [name]: _gone, ...rest } = current.keys;
      write({ version: 1, keys: rest });
    },
    exportAll() {
      const out: Record<string, string> = {};
      for (const name of Object.keys(read().keys)) {
        const k = get(name);
        if (k !== undefined) out[name] = k;
      }
      return out;
    },
  };
}
