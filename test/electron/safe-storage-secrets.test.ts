import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { safeStorageSecrets, type SafeStorageLike } from '../../src/main/electron/safe-storage-secrets';
import { ok } from '../helpers/call';
import { createTestCore, tempDir } from '../helpers/test-core';

const KEY = 'sk-proj-9f8e7d6c5b4a39281706f5e4d3c2b1a0';

/** A stand-in for Electron's safeStorage: XOR "encryption" (what matters is that it is not the plain key). */
function fakeSafeStorage(o: { available?: boolean; backend?: string } = {}): SafeStorageLike {
  const xor = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a));
  return {
    isEncryptionAvailable: () => o.available ?? true,
    encryptString: (s: string) => xor(Buffer.from(`v10${s}`, 'utf8')),
    decryptString: (b: Buffer) => {
      const s = xor(b).toString('utf8');
      if (!s.startsWith('v10'))
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return s.slice(3);
    },
    getSelectedStorageBackend: () => o.backend ?? 'gnome_libsecret',
  };
}

const cores: Core[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

describe('safeStorage secret store (the desktop app)', () => {
  it('keeps keys encrypted in a user-only file outside the workspace; a new store reads them back', async () => {
    const file = path.join(tempDir(), 'userData', 'endpoint-keys.json');
    const store = safeStorageSecrets(fakeSafeStorage(), file);
    const { core, workspacePath } = createTestCore({ secrets: store });
    cores.push(core);
    await ok(core, 'endpoints.add', {
      name: 'hosted',
      base_url: 'https://api.example.com/v1',
      model: 'gpt-x',
      key_source: 'keychain',
      key: KEY,
    });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text)).toEqual({ version: 1, keys: { hosted: expect.any(String) } });
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(path.dirname(file)).not.toBe(path.dirname(workspacePath));
    const again = safeStorageSecrets(fakeSafeStorage(), file);
    expect(again.get('hosted')).toBe(KEY);
    expect(again.exportAll()).toEqual({ hosted: KEY });
    const list = await ok(core, 'endpoints.list', {});
    expect(list.endpoints[0]!.key).toEqual({ present: true, where: 'OS keychain' });
    await ok(core, 'endpoints.remove', { name: 'hosted' });
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).keys).toEqual({});
    expect(fs.readdirSync(path.dirname(file))).toEqual(['endpoint-keys.json']); // no temp file left behind
  });

  it('refuses to store where there is no real keychain, and says why', () => {
    const dir = tempDir();
    const none = safeStorageSecrets(fakeSafeStorage({ available: false }), path.join(dir, 'a.json'));
    expect(none.unavailableReason()).toContain('not available');
    expect(() => none.set('x', KEY)).toThrow(/cannot store the key of "x"/);
    const basic = safeStorageSecrets(fakeSafeStorage({ backend: 'basic_text' }), path.join(dir, 'b.json'));
    expect(basic.unavailableReason()).toContain('no OS keyring');
    expect(fs.existsSync(path.join(dir, 'b.json'))).toBe(false);
  });

  it('a key encrypted under another keychain reads as missing, not as garbage', () => {
    const file = path.join(tempDir(), 'keys.json');
    fs.writeFileSync(file, JSON.stringify({ version: 1, keys: { old: Buffer.from('not ours').toString('base64') } }));
    const store = safeStorageSecrets(fakeSafeStorage(), file);
    expect(store.has('old')).toBe(true);
    expect(store.get('old')).toBeUndefined();
    expect(store.exportAll()).toEqual({});
  });
});
