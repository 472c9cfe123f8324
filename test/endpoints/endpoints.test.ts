import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { memorySecrets, type SecretStore } from '../../src/main/core/endpoints/key-store';
import type { Logger } from '../../src/main/core/logger';
import { fail, ok } from '../helpers/call';
import {
  capableModel,
  httpError,
  startScriptedOpenAI,
  type ScriptedServer,
  type Script,
} from '../helpers/scripted-openai';
import { createTestCore } from '../helpers/test-core';

const KEY = 'sk-live-4f9a8c7e6d5b4a3c2e1f0a9b8c7d6e5f';
const OTHER = 'sk-other-0a1b2c3d4e5f6a7b8c9d';

const opened: { core: Core; workspacePath: string; logged: string[] }[] = [];
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.core.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function setup(o: { env?: Record<string, string>; secrets?: SecretStore | null } = {}) {
  const logged: string[] = [];
  const log = (level: string) => (msg: string, f?: Record<string, unknown>) =>
    logged.push(`${level} ${msg} ${JSON.stringify(f ?? {})}`);
  const logger: Logger = { info: log('info'), warn: log('warn'), error: log('error') };
  const { core, workspacePath } = createTestCore({
    logger,
    env: o.env ?? {},
    ...(o.secrets === null ? {} : { secrets: o.secrets ?? memorySecrets() }),
  });
  const entry = { core, workspacePath, logged };
  opened.push(entry);
  return entry;
}
async function serve(o: { script?: Script; requireKey?: string; models?: string[] }) {
  const s = await startScriptedOpenAI(o);
  servers.push(s);
  return s;
}
/** Every byte of the workspace (the main file and its WAL), as text to grep. */
const workspaceBytes = (file: string) =>
  ['', '-wal', '-shm']
    .map((x) => file + x)
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString('latin1'))
    .join('\n');

describe('endpoints: stored without keys', () => {
  it('env source: stores the variable NAME (default COWORKENV_KEY_<NAME>) and says whether it is set', async () => {
    const { core } = setup({ env: { COWORKENV_KEY_LOCAL_QWEN: KEY } });
    const e = await ok(core, 'endpoints.add', {
      name: 'local-qwen',
      base_url: 'http://127.0.0.1:8000/v1/',
      model: 'qwen3-8b',
      key_source: 'env',
    });
    expect(e).toMatchObject({
      base_url: 'http://127.0.0.1:8000/v1',
      key_env: 'COWORKENV_KEY_LOCAL_QWEN',
      key: { present: true, where: 'environment variable COWORKENV_KEY_LOCAL_QWEN' },
      timeout_ms: 60_000,
      json_mode: null,
    });
    const other = await ok(core, 'endpoints.add', {
      name: 'hosted',
      base_url: 'https://api.example.com/v1',
      model: 'gpt-x',
      key_source: 'env',
      key_env: 'MY_PROVIDER_KEY',
    });
    expect(other.key).toEqual({ present: false, where: 'environment variable MY_PROVIDER_KEY (not set)' });
    const list = await ok(core, 'endpoints.list', {});
    expect(list.endpoints.map((x) => x.name)).toEqual(['hosted', 'local-qwen']);
    expect(list.keychain.available).toBe(true);
    expect(JSON.stringify(list)).not.toContain(KEY);
  });

  it('keychain source: the key goes to the secret store only — never to workspace bytes, answers or logs', async () => {
    const secrets = memorySecrets();
    const { core, workspacePath, logged } = setup({ secrets });
    const added = await ok(core, 'endpoints.add', {
      name: 'Hosted',
      base_url: 'https://api.example.com/v1',
      model: 'gpt-x',
      key_source: 'keychain',
      key: KEY,
    });
    expect(added.key).toEqual({ present: true, where: 'OS keychain' });
    expect(secrets.get('Hosted')).toBe(KEY);
    const updated = await ok(core, 'endpoints.update', { name: 'hosted', key: OTHER, model: 'gpt-y' });
    expect(updated).toMatchObject({ name: 'Hosted', model: 'gpt-y' });
    expect(secrets.get('Hosted')).toBe(OTHER);
    // Failed calls carrying the key do not echo it either.
    const refused = await fail(core, 'endpoints.add', {
      name: 'wrong-place',
      base_url: 'https://api.example.com/v1',
      model: 'm',
      key_source: 'env',
      key: KEY,
    });
    expect(refused.code).toBe('INVALID_INPUT');
    expect(refused.message).toContain('set COWORKENV_KEY_WRONG_PLACE instead');
    const everything = JSON.stringify([added, updated, refused, await ok(core, 'endpoints.list', {}), logged]);
    for (const k of [KEY, OTHER]) {
      expect(everything).not.toContain(k);
      expect(workspaceBytes(workspacePath)).not.toContain(k);
    }
    await core.close();
    for (const k of [KEY, OTHER]) expect(workspaceBytes(workspacePath)).not.toContain(k);
  });

  it('switching away from the keychain and removing an endpoint delete its stored key', async () => {
    const secrets = memorySecrets();
    const { core } = setup({ secrets, env: { COWORKENV_KEY_A: KEY } });
    await ok(core, 'endpoints.add', {
      name: 'a',
      base_url: 'http://h/v1',
      model: 'm',
      key_source: 'keychain',
      key: KEY,
    });
    await ok(core, 'endpoints.add', {
      name: 'b',
      base_url: 'http://h/v1',
      model: 'm',
      key_source: 'keychain',
      key: OTHER,
    });
    const a = await ok(core, 'endpoints.update', { name: 'a', key_source: 'env' });
    expect(a).toMatchObject({ key_source: 'env', key_env: 'COWORKENV_KEY_A', key: { present: true } });
    expect(secrets.has('a')).toBe(false);
    expect(await ok(core, 'endpoints.remove', { name: 'B' })).toEqual({ removed: true });
    expect(secrets.has('b')).toBe(false);
    expect(await ok(core, 'endpoints.remove', { name: 'b' })).toEqual({ removed: false });
  });

  it('refuses: keychain in CLI/browser mode, keys in URLs, a key_env that is a key, duplicate names', async () => {
    const { core } = setup({ secrets: null });
    const base = { name: 'x', base_url: 'http://127.0.0.1:1/v1', model: 'm' };
    const noKeychain = await fail(core, 'endpoints.add', { ...base, key_source: 'keychain', key: KEY });
    expect(noKeychain.message).toContain('no OS keychain here');
    expect(noKeychain.message).not.toContain(KEY);
    expect(
      (await fail(core, 'endpoints.add', { ...base, key_source: 'none', base_url: `https://u:${KEY}@h/v1` })).message,
    ).toContain('carries credentials');
    expect(
      (await fail(core, 'endpoints.add', { ...base, key_source: 'none', base_url: `https://h/v1?api_key=${KEY}` }))
        .message,
    ).toContain('carries "api_key"');
    const asName = await fail(core, 'endpoints.add', { ...base, key_source: 'env', key_env: KEY });
    expect(asName.code).toBe('INVALID_INPUT');
    expect(asName.message).toContain('the NAME of an environment variable');
    expect(JSON.stringify(asName)).not.toContain(KEY);
    await ok(core, 'endpoints.add', { ...base, key_source: 'none' });
    expect((await fail(core, 'endpoints.add', { ...base, name: 'X', key_source: 'none' })).code).toBe('CONFLICT');
    const list = await ok(core, 'endpoints.list', {});
    expect(list.keychain).toEqual({ available: false, reason: expect.stringContaining('no OS keychain here') });
    expect(list.endpoints[0]!.key).toEqual({ present: true, where: 'no key needed' });
  });
});

describe('endpoints.test tells problems apart', () => {
  const add = (core: Core, baseUrl: string, over: Record<string, unknown> = {}) =>
    ok(core, 'endpoints.add', { name: 'ep', base_url: baseUrl, model: 'test-model', key_source: 'env', ...over });

  it('a capable server: ok, latency, tool calls and JSON mode; saving the result records capabilities', async () => {
    const srv = await serve({ script: capableModel(), requireKey: KEY });
    const { core } = setup({ env: { COWORKENV_KEY_EP: KEY } });
    await add(core, srv.baseUrl);
    const r = await ok(core, 'endpoints.test', { name: 'ep' });
    expect(r).toMatchObject({ ok: true, problem: null, tool_calls: 'supported', json_mode: 'supported' });
    expect(r.latency_ms).toBeGreaterThanOrEqual(0);
    expect(r.tool_calls_detail).toContain('the model called ping');
    const reqs = srv.chatRequests();
    expect(reqs).toHaveLength(3);
    expect(reqs[1]!.body!.tools![0]!.function.name).toBe('ping');
    expect(reqs[2]!.body!.response_format).toEqual({ type: 'json_object' });
    const saved = await ok(core, 'endpoints.update', { name: 'ep', last_test: r });
    expect(saved).toMatchObject({ json_mode: true, tool_calls: true, last_test: { ok: true } });
  });

  it('unreachable, refused key (401), unknown model (404, with models served), missing key: told apart', async () => {
    const down = await serve({});
    await down.close();
    const keyed = await serve({ script: capableModel(), requireKey: KEY, models: ['llama3', 'qwen3'] });
    const { core, logged } = setup({ env: { COWORKENV_KEY_EP: OTHER, COWORKENV_KEY_GOOD: KEY } });
    await add(core, down.baseUrl);
    const unreachable = await ok(core, 'endpoints.test', { name: 'ep' });
    expect(unreachable).toMatchObject({ ok: false, problem: 'unreachable', tool_calls: 'untested' });
    expect(unreachable.message).toContain('connection refused');

    await ok(core, 'endpoints.update', { name: 'ep', base_url: keyed.baseUrl });
    const refused = await ok(core, 'endpoints.test', { name: 'ep' });
    expect(refused).toMatchObject({ ok: false, problem: 'key_refused' });
    expect(refused.message).toContain('the key was refused (HTTP 401');

    await add(core, keyed.baseUrl, { name: 'good', model: 'gpt-5' });
    const missing = await ok(core, 'endpoints.test', { name: 'good' });
    expect(missing).toMatchObject({ ok: false, problem: 'model_not_found', models: ['llama3', 'qwen3'] });
    expect(missing.message).toContain('the model "gpt-5" is not served');

    await add(core, keyed.baseUrl, { name: 'nokey', key_env: 'UNSET_VARIABLE' });
    const before = keyed.requests.length;
    const noKey = await ok(core, 'endpoints.test', { name: 'nokey' });
    expect(noKey).toMatchObject({ ok: false, problem: 'no_key' });
    expect(noKey.message).toContain('set the environment variable UNSET_VARIABLE');
    expect(keyed.requests.length).toBe(before); // nothing was sent
    for (const text of [JSON.stringify([unreachable, refused, missing, noKey]), logged.join('\n')]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(OTHER);
    }
  });

  it('tool calls unsupported: answered in text, or tools refused (400); JSON mode told apart too', async () => {
    const text = await serve({ script: capableModel({ tools: false, json: false }) });
    const refusing = await serve({
      script: (req) =>
        req.body?.tools || req.body?.response_format
          ? httpError(400, { message: 'tools not enabled' })
          : capableModel()(req),
    });
    const { core } = setup();
    await add(core, text.baseUrl, { key_source: 'none' });
    const a = await ok(core, 'endpoints.test', { name: 'ep' });
    expect(a).toMatchObject({ ok: true, tool_calls: 'unsupported', json_mode: 'unsupported' });
    expect(a.tool_calls_detail).toContain('answered in text instead');
    expect(a.json_mode_detail).toContain('accepted response_format json_object but answered');
    expect(text.chatRequests().every((r) => r.headers.authorization === undefined)).toBe(true);

    await ok(core, 'endpoints.update', { name: 'ep', base_url: refusing.baseUrl, json_mode: true });
    const b = await ok(core, 'endpoints.test', { name: 'ep' });
    expect(b).toMatchObject({ ok: true, tool_calls: 'unsupported', json_mode: 'unsupported' });
    expect(b.tool_calls_detail).toContain('refused a request with tools');
    const saved = await ok(core, 'endpoints.update', { name: 'ep', last_test: b });
    expect(saved).toMatchObject({ tool_calls: false, json_mode: false });
  });
});
