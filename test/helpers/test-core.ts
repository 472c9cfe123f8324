import path from 'node:path';
import { createCore, type CreateCoreOptions } from '../../src/main/core';
import { tempDir } from './temp';

export const REPO_ROOT = path.resolve(__dirname, '../..');

/** Job workers run the TypeScript source through tsx, so unit tests need no build. */
export const TS_WORKER = {
  workerEntry: path.join(REPO_ROOT, 'test/helpers/ts-worker.cjs'),
};

/** TS_WORKER with a barrier after a fresh job's first batch until a cancel is asked (ts-worker-cancel-barrier.cjs). */
export const TS_WORKER_CANCEL_BARRIER = {
  workerEntry: path.join(REPO_ROOT, 'test/helpers/ts-worker-cancel-barrier.cjs'),
};

export { tempDir } from './temp';

export const FIXED_NOW = new Date('2026-03-01T09:00:00.000Z');

/** A fresh core on a new workspace file in a temporary folder, with output validation on. */
export function createTestCore(opts: Partial<CreateCoreOptions> = {}) {
  const dir = tempDir();
  const workspacePath = opts.workspacePath ?? path.join(dir, 'test.coworkenv.db');
  const core = createCore({
    workspacePath,
    clock: () => FIXED_NOW,
    checkOutput: true,
    watchIntervalMs: 50,
    ...TS_WORKER,
    ...opts,
  });
  return { core, dir, workspacePath };
}
