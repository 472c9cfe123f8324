import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { capableModel, startScriptedOpenAI, type ScriptedServer } from '../helpers/scripted-openai';
import { tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

const KEY = 'sk-cli-1b2c3d4e5f60718293a4b5c6d7e8f9';
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('coworkenv endpoints add | list | test | remove', () => {
  it('adds an endpoint whose key is in the environment, tests it (saving the result), lists, removes it', async () => {
    const srv = await startScriptedOpenAI({ script: capableModel(), requireKey: KEY, models: ['qwen3-8b'] });
    servers.push(srv);
    const ws = path.join(tempDir('cli-ep-'), 'w.coworkenv.db');
    const env = { COWORKENV_KEY_LOCAL_QWEN: KEY };
    const run = (...args: string[]) => runCliCaptured(['--workspace', ws, '--empty', ...args], { env });
    const outputs: string[] = [];
    const keep = (r: { stdout: string; stderr: string; code: number }) => (outputs.push(r.stdout, r.stderr), r);

    const add = keep(await run('endpoints', 'add', 'local-qwen', '--base-url', srv.baseUrl, '--model', 'qwen3-8b'));
    expect(add.code).toBe(0);
    expect(add.stdout).toContain('key: env — environment variable COWORKENV_KEY_LOCAL_QWEN');

    const test = keep(await run('endpoints', 'test', 'local-qwen'));
    expect(test.code).toBe(0);
    expect(test.stdout).toMatch(/local-qwen: ok — answered in \d+ ms/);
    expect(test.stdout).toContain('tool calls: supported');
    expect(test.stdout).toContain('JSON mode:  supported');

    const list = keep(await run('endpoints', 'list'));
    expect(list.stdout).toContain('tool calls: yes  JSON mode: yes');
    expect(list.stdout).toContain('last test (');

    const bad = keep(
      await run(
        'endpoints',
        'add',
        'wrong-model',
        '--base-url',
        srv.baseUrl,
        '--model',
        'gpt-x',
        '--key-env',
        'COWORKENV_KEY_LOCAL_QWEN',
      ),
    );
    expect(bad.code).toBe(0);
    const failed = keep(await run('endpoints', 'test', 'wrong-model'));
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('FAILED (model_not_found)');
    expect(failed.stdout).toContain('it serves: qwen3-8b');

    const json = keep(await run('--json', 'endpoints', 'test', 'wrong-model'));
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, data: { ok: false, problem: 'model_not_found' } });

    expect(keep(await run('endpoints', 'remove', 'local-qwen')).stdout).toBe('removed local-qwen\n');
    expect(keep(await run('endpoints', 'remove', 'local-qwen')).stdout).toBe('no endpoint named local-qwen\n');

    expect(srv.chatRequests()[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(outputs.join('\n')).not.toContain(KEY);
    expect(fs.readFileSync(ws).toString('latin1')).not.toContain(KEY);
  });

  it('usage errors: bad numbers, missing name; the keychain is not offered from the terminal', async () => {
    const ws = path.join(tempDir('cli-ep-'), 'w.coworkenv.db');
    const bad = await runCliCaptured(['--workspace', ws, 'endpoints', 'add', 'x', '--timeout-ms', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--timeout-ms must be a number, not "soon"');
    expect((await runCliCaptured(['--workspace', ws, 'endpoints', 'test'])).code).toBe(2);
    const keychain = await runCliCaptured([
      '--workspace',
      ws,
      'endpoints',
      'add',
      'x',
      '--base-url',
      'http://127.0.0.1:1/v1',
      '--model',
      'm',
      '--key-source',
      'keychain',
    ]);
    expect(keychain.code).toBe(1);
    expect(keychain.stderr).toContain('no OS keychain here (CLI or browser mode)');
  });
});
