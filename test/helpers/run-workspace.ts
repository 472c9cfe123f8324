import { openDb, writeHandle } from '../../src/main/core/db/sqlite';
import { storeTaskSpec } from '../../src/main/core/tasks/spec-store';
import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import type { Job } from '../../src/shared/contract/jobs.contract';
import { ok } from './call';
import { createTestCore, FIXED_NOW } from './test-core';

/** Stores TaskSpecs (generated tasks) in a workspace through a connection of its own. */
export function storeTasks(workspacePath: string, specs: readonly TaskSpec[]): void {
  const db = openDb(workspacePath);
  try {
    db.transaction(() => {
      for (const s of specs) storeTaskSpec(writeHandle(db), s, { origin: 'generated', now: FIXED_NOW.toISOString() });
    })();
  } finally {
    db.close();
  }
}

/** A test core on a new workspace holding these tasks (no demo plan). */
export function runWorkspace(specs: readonly TaskSpec[], opts: Parameters<typeof createTestCore>[0] = {}) {
  const t = createTestCore({ seedDemo: false, ...opts });
  storeTasks(t.workspacePath, specs);
  return t;
}

type Core = ReturnType<typeof createTestCore>['core'];

/** Waits for a job to end and answers its final row. */
export async function waitJob(core: Core, jobId: string): Promise<Job> {
  let j = await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 120_000 });
  while (j.state === 'queued' || j.state === 'running')
    j = await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 120_000 });
  return j;
}
