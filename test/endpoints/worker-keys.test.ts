import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { memorySecrets } from '../../src/main/core/endpoints/key-store';
import { ok } from '../helpers/call';
import { createTestCore, tempDir } from '../helpers/test-core';

const KEY = 'sk-worker-31415926535897932384';
const ENV_KEY = 'sk-env-27182818284590452353';

const cores: Core[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

describe('job workers get endpoint keys in memory, never through the jobs table', () => {
  it('keychain keys arrive in workerData and the core’s environment in the worker’s process.env', async () => {
    // A stand-in worker entry that only reports what it was handed (the real one builds JobContext.keys from it).
    const dir = tempDir('worker-keys-');
    const entry = path.join(dir, 'report-worker.cjs');
    fs.writeFileSync(
      entry,
      `const { workerData } = require('node:worker_threads');
require('node:fs').writeFileSync(workerData.workspacePath + '.seen.json',
  JSON.stringify({ secrets: workerData.secrets ?? null, env: process.env.COWORKENV_KEY_ENVY ?? null }));`,
    );
    const { core, workspacePath } = createTestCore({
      workerEntry: entry,
      secrets: memorySecrets({ hosted: KEY }),
      env: { COWORKENV_KEY_ENVY: ENV_KEY },
    });
    cores.push(core);
    const { jobId } = await ok(core, 'validation.run', { all: true });
    const job = await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 }); // a hang guard: a worker starting
    expect(job.state).toBe('failed'); // the stand-in never finishes a job
    expect(JSON.parse(fs.readFileSync(`${workspacePath}.seen.json`, 'utf8'))).toEqual({
      secrets: { hosted: KEY },
      env: ENV_KEY,
    });
    await core.close();
    const bytes = fs.readFileSync(workspacePath).toString('latin1');
    expect(bytes).not.toContain(KEY);
    expect(bytes).not.toContain(ENV_KEY);
  });
});
