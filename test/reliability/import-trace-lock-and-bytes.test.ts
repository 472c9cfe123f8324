import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Core } from '../../src/main/core';
import { writeTrace } from '../../src/main/core/traces';
import { fail, ok } from '../helpers/call';
import { synthTrajectory } from '../helpers/claw-traces';
import { CLAW_ROOT, hasGoldens } from '../helpers/goldens';
import { createTestCore } from '../helpers/test-core';

const canRun = hasGoldens && fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const TASK = 'T018_ticket_triage';

/** The workspace the trace reader probes: at each read it asks a second connection for the write lock. */
const probe: { db: Database.Database | null; reads: number; locked: number } = { db: null, reads: 0, locked: 0 };
vi.mock('../../src/main/core/trajectories/formats', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../../src/main/core/trajectories/formats')>();
  return {
    ...orig,
    readRecord: (...args: Parameters<typeof orig.readRecord>) => {
      if (probe.db) {
        probe.reads++;
        try {
          probe.db.exec('BEGIN IMMEDIATE');
          probe.db.exec('ROLLBACK');
        } catch {
          probe.locked++;
        }
      }
      return orig.readRecord(...args);
    },
  };
});

const cores: Core[] = [];
afterEach(async () => {
  probe.db?.close();
  probe.db = null;
  await Promise.all(cores.splice(0).map((c) => c.close()));
});
async function coreWithTask() {
  const made = createTestCore({ seedDemo: false });
  cores.push(made.core);
  await ok(made.core, 'tasks.import', { paths: [path.join(CLAW_ROOT, 'tasks', TASK)] });
  return made;
}

describe.skipIf(!canRun)('trajectories.importTrace', () => {
  it('reads and grades the trace before it takes the write lock', async () => {
    const { core, workspacePath } = await coreWithTask();
    probe.db = new Database(workspacePath, { timeout: 0 });
    const out = await ok(core, 'trajectories.importTrace', { traceJsonl: writeTrace(synthTrajectory(TASK)) });
    expect(out).toMatchObject({ taskId: TASK, graded: true, duplicate: false });
    expect(probe.reads).toBe(1);
    expect(probe.locked).toBe(0);
  });

  it('refuses text no UTF-8 file holds (a lone surrogate) with its line, instead of storing U+FFFD', async () => {
    const { core } = await coreWithTask();
    const lines = writeTrace(synthTrajectory(TASK)).split('\n');
    const at = lines.findIndex((l) => l.includes('"role":"assistant"') || l.includes('"role": "assistant"'));
    expect(at).toBeGreaterThan(0);
    lines[at] = lines[at]!.replace(/("text": ?")/, '$1\ud800');
    const err = await fail(core, 'trajectories.importTrace', { traceJsonl: lines.join('\n') });
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toMatch(new RegExp(`line ${at + 1}: .*surrogate`));
    expect(err.issues?.[0]?.path).toEqual(['traceJsonl', `line ${at + 1}`]);
    expect((await ok(core, 'trajectories.list', {})).total).toBe(0);
  });
});
