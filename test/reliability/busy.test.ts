import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { contract, type Input } from '../../src/shared/contract';
import { fail, ok, slotInput } from '../helpers/call';
import { nextEvent } from '../helpers/events';
import { createTestCore } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

const cores: Core[] = [];
const locks: Database.Database[] = [];
afterEach(async () => {
  for (const l of locks.splice(0)) if (l.open) l.inTransaction && l.exec('ROLLBACK'), l.close();
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

/** A core whose writes wait 100 ms for another process's lock (5 s by default). */
function newCore(opts: Parameters<typeof createTestCore>[0] = {}) {
  const made = createTestCore({ busyTimeoutMs: 100, ...opts });
  cores.push(made.core);
  return made;
}

/** Another process's writer, holding the write lock until released. */
function holdWriteLock(file: string): { release(): void } {
  const db = new Database(file);
  locks.push(db);
  db.exec('BEGIN IMMEDIATE');
  return {
    release: () => {
      db.exec('ROLLBACK');
      db.close();
    },
  };
}

const BIG: Input<'plan.generateGrid'> = {
  serviceSets: contract['plan.generateGrid'].input.shape.serviceSets.parse([['gmail'], ['calendar'], ['todo']]),
  categories: Array.from({ length: 20 }, (_, i) => `cat-${i}`),
  referenceDates: Array.from({ length: 20 }, (_, i) => `2026-05-${String(i + 1).padStart(2, '0')}`),
  batchSize: 1,
};

describe('a write that meets another writer’s lock', () => {
  it('waits, then answers BUSY (not INTERNAL) and writes nothing; once the lock is gone it succeeds', async () => {
    const { core, workspacePath } = newCore();
    const lock = holdWriteLock(workspacePath);
    const err = await fail(core, 'plan.create', { rows: [slotInput({ family: 'while-locked' })] });
    expect(err.code).toBe('BUSY');
    expect(err.message).toMatch(/^the workspace is busy with .+, try again/);
    lock.release();
    expect((await ok(core, 'plan.create', { rows: [slotInput({ family: 'after' })] })).slots).toHaveLength(1);
    expect((await ok(core, 'plan.list', {})).rows.map((r) => r.family)).toEqual(['after']);
  });

  it('starting a job is BUSY too, and no job row is left behind', async () => {
    const { core, workspacePath } = newCore();
    const lock = holdWriteLock(workspacePath);
    expect((await fail(core, 'plan.generateGrid', BIG)).code).toBe('BUSY');
    lock.release();
    expect(await ok(core, 'jobs.list', {})).toEqual([]);
  });

  it('the CLI prints "error BUSY" and exits 1', async () => {
    const { workspacePath } = newCore();
    const lock = holdWriteLock(workspacePath);
    const r = await runCliCaptured(
      ['--workspace', workspacePath, 'call', 'plan.create', '--input', JSON.stringify({ rows: [slotInput()] })],
      { coreOptions: { busyTimeoutMs: 100 } },
    );
    lock.release();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error BUSY: the workspace is busy with .+, try again/);
  });

  it('a job whose batch stays locked out fails saying so, not "the worker stopped"; batches stay', async () => {
    const { core, workspacePath } = newCore({ jobBusyWaitMs: 300 });
    const { jobId } = await ok(core, 'plan.generateGrid', BIG);
    // Lock once the job has committed a batch; release once it reports it is failing.
    await nextEvent(core.events, (e) => e.event === 'job.progress' && e.payload.jobId === jobId && e.payload.done > 0);
    const lock = holdWriteLock(workspacePath);
    await nextEvent(
      core.events,
      (e) => e.event === 'job.progress' && e.payload.jobId === jobId && e.payload.message.startsWith('failing'),
    );
    lock.release();
    const job = await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 });
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(/busy .*BUSY.*resume/);
    expect(job.error).not.toMatch(/worker stopped/);
    const committed = (await ok(core, 'plan.list', { limit: 1 })).total;
    expect(committed).toBe(job.done);
    expect(committed).toBeGreaterThan(0);
  });
});
