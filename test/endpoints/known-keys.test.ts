import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { openDb, writeHandle } from '../../src/main/core/db/sqlite';
import { memorySecrets } from '../../src/main/core/endpoints/key-store';
import { jobsLedger } from '../../src/main/core/jobs/jobs.repo';
import { redactErrorResult, redactText, redactValue } from '../../src/main/core/lib/redact';
import { registerKnownKey } from '../../src/main/core/lib/secrets/known-keys';
import { type Logger, redactingLogger } from '../../src/main/core/logger';
import { ok } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';

/**
 * Configured endpoint keys are redacted exactly, whatever their shape (these match no pattern rule),
 * in the spellings a text may carry them in, and by the writers themselves, in the main process and
 * in job workers alike (issue 16).
 */
const KEY = 'Wm4plainKeyNoPattern8Tq"/x';
const ENV_KEY = 'Hv2envOnlyKeyNoPattern5Rb';
const CHAIN_KEY = 'Ks9keychainOnlyNoPattern3Lp';
const MARK = '[REDACTED:endpoint_key]';

describe('keys registered in this thread', () => {
  it('are replaced raw, JSON-escaped (once and twice), URL-encoded and in base64; short values are not keys', () => {
    registerKnownKey(KEY);
    registerKnownKey('EMPTY');
    const once = JSON.stringify(KEY).slice(1, -1);
    const twice = JSON.stringify(once).slice(1, -1);
    for (const spelled of [KEY, once, twice, encodeURIComponent(KEY), Buffer.from(KEY).toString('base64')]) {
      const r = redactText(`the server said: ${spelled}!`);
      expect(r.text, spelled).toBe(`the server said: ${MARK}!`);
      expect(r.counts).toEqual({ endpoint_key: 1 });
    }
    expect(redactText('EMPTY is the key vLLM wants').counts).toEqual({});
  });

  it('logs, error envelopes and redactValue (exports) carry none', () => {
    const seen: string[] = [];
    const inner: Logger = { info: (m, f) => seen.push(m + JSON.stringify(f)), warn() {}, error() {} };
    redactingLogger(inner).info(`answer ${KEY}`, { body: { echo: KEY } });
    expect(seen.join()).not.toContain('plainKey');
    const failed = { ok: false as const, error: { code: 'UPSTREAM', message: `refused ${KEY}` } };
    expect(JSON.stringify(redactErrorResult(failed))).not.toContain('plainKey');
    expect(redactValue({ messages: [{ content: `key=${KEY}` }] }).report.byRule).toEqual({ endpoint_key: 1 });
  });

  it('the jobs ledger writes no key into a job row, whatever the job hands it', () => {
    const { core, workspacePath } = createTestCore();
    const db = openDb(workspacePath);
    const jobs = jobsLedger(writeHandle(db) as never);
    const now = new Date().toISOString();
    jobs.create({ id: 'j1', name: 'export.sft', input: {}, total: 1, owner: 'test', now });
    jobs.advance('j1', 1, `echo ${KEY}`, now);
    jobs.finish('j1', { note: `the model said ${KEY}` }, now);
    jobs.create({ id: 'j2', name: 'export.sft', input: {}, total: 1, owner: 'test', now });
    jobs.setState('j2', 'failed', now, { message: `failed: ${KEY}`, error: `HTTP 401: ${KEY}` });
    const rows = JSON.stringify(db.prepare('SELECT * FROM jobs').all());
    db.close();
    void core.close();
    expect(rows).toContain(MARK);
    expect(rows).not.toContain('plainKey');
  });
});

describe('a job worker knows the configured keys before any model call', () => {
  let core: Core;
  afterAll(() => core?.close());

  it('export.sft in a worker redacts env and keychain keys found in stored trajectories', async () => {
    const t = createTestCore({
      env: { COWORKENV_KEY_LOCAL: ENV_KEY },
      secrets: memorySecrets({ hosted: CHAIN_KEY }),
    });
    core = t.core;
    await ok(core, 'endpoints.add', {
      name: 'local',
      base_url: 'http://127.0.0.1:9/v1',
      model: 'm',
      key_source: 'env',
      timeout_ms: 1000,
    });
    // A chat a user imported in which the keys were pasted: stored as imported, redacted on the way out.
    const file = path.join(t.dir, 'pasted.jsonl');
    const messages = [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: `my keys: ${ENV_KEY} and ${CHAIN_KEY}` },
      { role: 'assistant', content: 'Which endpoint are they for?' },
      { role: 'user', content: 'The local one and the hosted one.' },
      { role: 'assistant', content: 'Thanks, configured.' },
    ];
    fs.writeFileSync(file, `${JSON.stringify({ messages })}\n`);
    const imported = await ok(core, 'trajectories.import', { paths: [file] });
    expect((await ok(core, 'jobs.wait', { id: imported.jobId, timeoutMs: 60_000 })).state).toBe('done');
    const outDir = path.join(t.dir, 'out');
    const options = { pools: { mixed: { minReward: null, converter: true } } };
    const { jobId } = await ok(core, 'export.sft', {
      dialect: 'openai',
      outDir,
      selection: { allUncurated: true },
      options,
    } as never);
    const job = await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 });
    expect(job.state, job.error ?? '').toBe('done');
    const text = fs.readFileSync(path.join(outDir, 'train.jsonl'), 'utf8');
    expect(text).toContain('Thanks, configured.');
    expect(text).not.toContain(ENV_KEY);
    expect(text).not.toContain(CHAIN_KEY);
  }, 90_000);
});
