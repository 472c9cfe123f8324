import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Core } from '../../src/main/core';
import { ok } from '../helpers/call';
import { CLAW_ROOT } from '../helpers/goldens';
import { createTestCore } from '../helpers/test-core';

const hasCorpus = fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const cores: Core[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

/**
 * Watches every file-system read under `root` and, at that moment, asks a second connection for
 * the write lock without waiting: it is free unless the reader holds a write transaction.
 */
function readsUnderLock(workspacePath: string, root: string): { reads: number; locked: string[] } {
  const probe = new Database(workspacePath, { timeout: 0 });
  const seen = { reads: 0, locked: [] as string[] };
  const check = (p: unknown) => {
    if (typeof p !== 'string' || !path.resolve(p).startsWith(root)) return;
    seen.reads++;
    try {
      probe.exec('BEGIN IMMEDIATE');
      probe.exec('ROLLBACK');
    } catch {
      seen.locked.push(path.relative(root, p));
    }
  };
  for (const name of ['openSync', 'readFileSync', 'statSync', 'lstatSync', 'readdirSync', 'existsSync'] as const) {
    const original = fs[name] as (...a: unknown[]) => unknown;
    vi.spyOn(fs, name).mockImplementation(((...args: unknown[]) => {
      check(args[0]);
      return original(...args);
    }) as never);
  }
  return seen;
}

describe.skipIf(!hasCorpus)('tasks.import reads its files before it takes the write lock', () => {
  it('no task.yaml or fixture is read while the workspace is locked for writing', async () => {
    const made = createTestCore();
    cores.push(made.core);
    const seen = readsUnderLock(made.workspacePath, CLAW_ROOT);
    const paths = ['T001zh_email_triage', 'T018_ticket_triage', 'T029zh_cross_service_meeting'].map((t) =>
      path.join(CLAW_ROOT, 'tasks', t),
    );
    const out = await ok(made.core, 'tasks.import', { paths });
    expect(out.counts.imported).toBe(3);
    expect(seen.reads).toBeGreaterThan(6);
    expect(seen.locked).toEqual([]);
  });
});
