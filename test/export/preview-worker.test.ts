import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import type { Output } from '../../src/shared/contract';
import { ok } from '../helpers/call';
import { messagesRow, writeJsonl } from '../helpers/tau-records';
import { createTestCore, REPO_ROOT, tempDir } from '../helpers/test-core';
import { importFiles } from '../helpers/trajectory-import';

/**
 * Issue 21 item 2: the Export page's preview (and "Count exactly") ran on the core's thread, so a grid request from
 * another window waited for it (17 s on 100k trajectories). It now runs in a query worker (core/jobs/off-thread.ts)
 * with its own read-only connection, and a newer request with the same key cancels it. The worker entry here holds
 * every query at a gate (ts-worker-query-gate.cjs) until the test opens it: no timing.
 */
const gate = tempDir('query-gate-');

/** Resolves when the gate's folder holds `name` (the worker wrote it: its query is held). */
function appears(name: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = fs.watch(gate, () => check());
    const check = () => {
      if (!fs.existsSync(path.join(gate, name))) return;
      watcher.close();
      resolve();
    };
    check();
  });
}

describe('the SFT preview runs in a query worker', () => {
  let core: Core;
  const dir = tempDir('preview-worker-');
  const preview = (key: string) =>
    core.dispatch('export.sftPreview', { dialect: 'trl', selection: { allUncurated: true }, maxBodies: null, key });
  beforeAll(async () => {
    process.env.COWORKENV_TEST_GATE = gate;
    core = createTestCore({
      seedDemo: false,
      workerEntry: path.join(REPO_ROOT, 'test/helpers/ts-worker-query-gate.cjs'),
    }).core;
    const rows = ['t1', 't2', 't3'].flatMap((task) => [0, 1].map((trial) => messagesRow({ task, trial, reward: 1 })));
    await importFiles(core, { paths: [writeJsonl(dir, 'rows.jsonl', rows)], collection: 'c' });
  }, 120_000);
  afterAll(async () => {
    delete process.env.COWORKENV_TEST_GATE;
    await core?.close();
  });

  it('answers other calls while a preview is held, and a newer preview with the same key cancels it', async () => {
    let settled = false;
    const first = preview('export-page').finally(() => {
      settled = true;
    });
    await appears('held-1');
    // The preview is running (held in its worker): a grid call and another query are answered meanwhile.
    const grid = await ok(core, 'trajectories.list', { offset: 0, limit: 50 });
    expect(grid.total).toBe(6);
    expect((await ok(core, 'export.curation', {})).trajectories).toBe(6);
    expect(settled).toBe(false);

    // The filters changed: the page asks again with its key, and the first preview is stopped.
    const second = preview('export-page');
    const stopped = await first;
    expect(stopped.ok ? null : stopped.error).toMatchObject({ code: 'CONFLICT', message: /superseded/ });
    await appears('held-2');
    fs.writeFileSync(path.join(gate, 'open'), '');
    const done = await second;
    expect(done.ok && (done.data as Output<'export.sftPreview'>).preview.report).toMatchObject({
      input: 6,
      exported: 6,
    });
  });

  it('answers what the core computes itself (in-memory workspaces run it in the thread)', async () => {
    fs.writeFileSync(path.join(gate, 'open'), '');
    const off = await ok(core, 'export.sftPreview', { dialect: 'openai', selection: { allUncurated: true } });
    const mem = createTestCore({ seedDemo: false, workspacePath: ':memory:' }).core;
    try {
      const inThread = await ok(mem, 'export.sftPreview', { dialect: 'openai', selection: { allUncurated: true } });
      expect(inThread.preview.report.input).toBe(0);
    } finally {
      await mem.close();
    }
    expect(off.preview.report).toMatchObject({ input: 6 });
    expect(off.curation.trajectories).toBe(6);
  });
});
