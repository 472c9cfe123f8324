import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { slotsWriter } from '../../src/main/core/plan/slots.repo';
import { writeHandle } from '../../src/main/core/db/sqlite';
import { processStartTime } from '../../src/main/core/jobs/process-start';
import { slotAt } from '../../src/main/core/plan/generate-grid.job';
import { contract, type AnyEvent, type Input } from '../../src/shared/contract';
import { fail, ok } from '../helpers/call';
import { nextEvent, recordEvents } from '../helpers/events';
import { createTestCore, TS_WORKER_CANCEL_BARRIER } from '../helpers/test-core';

const cores: Core[] = [];
const newCore = (opts: Parameters<typeof createTestCore>[0] = {}) => {
  const made = createTestCore(opts);
  cores.push(made.core);
  return made;
};
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

type GridInput = Input<'plan.generateGrid'>;
const SMALL: GridInput = {
  serviceSets: [['gmail'], ['calendar', 'gmail']],
  categories: ['a', 'b'],
  referenceDates: ['2026-01-01', '2026-01-02'],
  batchSize: 7,
};
/**
 * 13 × 2 × 3 × 2 × 5 × 2 = 1,560 slots in batches of 20. Tests that cancel it run it on the cancel barrier's worker
 * (TS_WORKER_CANCEL_BARRIER): it waits after its first batch until the cancel is asked, so the cancel lands after
 * exactly one batch. (Before, 39,000 slots were to outlast the cancel: a race it lost at 1,560, and 50 s of a 60 s
 * jobs.wait on a busy machine.)
 */
const BIG: GridInput = {
  serviceSets: contract['plan.generateGrid'].input.shape.serviceSets.parse([
    ['gmail'],
    ['calendar'],
    ['todo'],
    ['contacts'],
    ['finance'],
    ['notes'],
    ['kb'],
    ['helpdesk'],
    ['inventory'],
    ['rss'],
    ['crm'],
    ['config'],
    ['scheduler'],
  ]),
  categories: ['cat-0', 'cat-1'],
  scenarios: ['single_service', 'cross_service', 'safety', 'temporal', 'multi_turn'],
  referenceDates: ['2026-05-01', '2026-05-02'],
  batchSize: 20,
};
const BIG_TOTAL = 1_560;

const progressOf = (list: AnyEvent[], jobId: string) =>
  list.flatMap((e) => (e.event === 'job.progress' && e.payload.jobId === jobId ? [e.payload] : []));

/**
 * Row count and distinct (family, services, category, difficulty, language, scenario, reference_date) count, read
 * directly.
 */
function countRows(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const rows = (db.prepare('SELECT count(*) AS n FROM coverage_slots').get() as { n: number }).n;
    const distinct = (
      db
        .prepare(
          'SELECT count(*) AS n FROM (SELECT DISTINCT family, services, category, difficulty, language, scenario, ' +
            'reference_date FROM coverage_slots)',
        )
        .get() as { n: number }
    ).n;
    return { rows, distinct };
  } finally {
    db.close();
  }
}

/** Starts a big grid and cancels it as soon as its first batch is committed (the core runs the barrier's worker). */
async function startAndCancel(core: Core) {
  const rec = recordEvents(core.events);
  const { jobId } = await ok(core, 'plan.generateGrid', BIG);
  await nextEvent(
    core.events,
    (e) =>
      e.event === 'job.progress' && e.payload.jobId === jobId && e.payload.state === 'running' && e.payload.done > 0,
  );
  await ok(core, 'jobs.cancel', { id: jobId });
  const job = await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 });
  rec.stop();
  return { jobId, job, progress: progressOf(rec.list, jobId) };
}

describe('plan.generateGrid as a worker job', () => {
  it('reports monotonic progress, ends done, and commits exactly total rows', async () => {
    const { core, workspacePath } = newCore();
    const rec = recordEvents(core.events);
    const { jobId } = await ok(core, 'plan.generateGrid', SMALL);
    const job = await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 });
    expect(job).toMatchObject({ state: 'done', done: 48, total: 48, error: null, result: { added: 48 } });

    const progress = progressOf(rec.list, jobId);
    const dones = progress.map((p) => p.done);
    expect(dones).toEqual([...dones].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ state: 'done', done: 48, total: 48, name: 'plan.generateGrid' });
    expect(progress.filter((p) => p.state === 'running').map((p) => p.done)).toEqual([7, 14, 21, 28, 35, 42, 48]);
    expect(rec.list.some((e) => e.event === 'table.changed' && e.payload.table === 'coverage_slots')).toBe(true);

    expect(countRows(workspacePath)).toEqual({ rows: 48, distinct: 48 });
    expect((await ok(core, 'plan.list', { limit: 1, sort: [{ field: 'id', dir: 'asc' }] })).rows[0]).toMatchObject({
      family: 'grid-gmail',
      category: 'a',
      difficulty: 'easy',
      language: 'en',
      reference_date: '2026-01-01',
    });
    expect((await ok(core, 'jobs.list', {})).map((j) => j.id)).toEqual([jobId]);
  });

  it('cancellation stops after a batch: state cancelled, done < total, exactly done rows committed', async () => {
    const { core, workspacePath } = newCore(TS_WORKER_CANCEL_BARRIER);
    const { job, progress } = await startAndCancel(core);
    expect(job.state).toBe('cancelled');
    expect(job.done).toBe(20); // the barrier holds the job after its first batch until the cancel is asked
    expect(countRows(workspacePath)).toEqual({ rows: job.done, distinct: job.done });
    expect(progress.at(-1)).toMatchObject({ state: 'cancelled', done: job.done });
    // Cancelling a finished job changes nothing.
    expect(await ok(core, 'jobs.cancel', { id: job.id })).toMatchObject({ state: 'cancelled', done: job.done });
  });

  it('a cancelled job resumes to exactly total rows, without duplicates', async () => {
    const { core, workspacePath } = newCore(TS_WORKER_CANCEL_BARRIER);
    const { jobId, job } = await startAndCancel(core);
    expect(job.state).toBe('cancelled');
    const resumed = await ok(core, 'jobs.resume', { id: jobId });
    expect(resumed.jobId).toBe(jobId);
    expect((await ok(core, 'jobs.get', { id: jobId })).state).toMatch(/queued|running/);
    const final = await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 });
    expect(final).toMatchObject({ state: 'done', done: BIG_TOTAL, total: BIG_TOTAL, result: { added: BIG_TOTAL } });
    expect(countRows(workspacePath)).toEqual({ rows: BIG_TOTAL, distinct: BIG_TOTAL });
    expect((await fail(core, 'jobs.resume', { id: jobId })).code).toBe('CONFLICT');
  });

  it('resumed the moment its row says cancelled (old worker still exiting): the new run is not failed', async () => {
    const { core, workspacePath } = newCore(TS_WORKER_CANCEL_BARRIER);
    const { jobId } = await ok(core, 'plan.generateGrid', BIG);
    await nextEvent(core.events, (e) => e.event === 'job.progress' && e.payload.jobId === jobId && e.payload.done > 0);
    await ok(core, 'jobs.cancel', { id: jobId });
    // jobs.get reads the row: it says cancelled before the worker thread has exited.
    while ((await ok(core, 'jobs.get', { id: jobId })).state !== 'cancelled') await new Promise(setImmediate);
    await ok(core, 'jobs.resume', { id: jobId });
    const final = await ok(core, 'jobs.wait', { id: jobId, timeoutMs: 60_000 });
    expect(final).toMatchObject({ state: 'done', done: BIG_TOTAL, error: null });
    expect(countRows(workspacePath)).toEqual({ rows: BIG_TOTAL, distinct: BIG_TOTAL });
  });

  it('closing the core stops a running job after its current batch', async () => {
    const { core, workspacePath } = newCore(TS_WORKER_CANCEL_BARRIER);
    const { jobId } = await ok(core, 'plan.generateGrid', BIG);
    await nextEvent(core.events, (e) => e.event === 'job.progress' && e.payload.state === 'running');
    await core.close();
    const again = newCore({ workspacePath }).core;
    const job = await ok(again, 'jobs.get', { id: jobId });
    expect(job.state).toBe('cancelled');
    expect(countRows(workspacePath).rows).toBe(job.done);
  });
});

describe('jobs left behind by a process that ended', () => {
  /** A workspace holding a generateGrid job row as a crashed process would leave it: `done` batches committed. */
  async function crashedJob(owner: string, done: number) {
    const { core, workspacePath } = createTestCore();
    await core.close();
    const input = contract['plan.generateGrid'].input.parse(SMALL);
    const db = new Database(workspacePath);
    db.transaction(() => {
      db.prepare(
        "INSERT INTO jobs (id, name, input, state, done, total, owner, created_at, updated_at) VALUES ('j1', " +
          "'plan.generateGrid', ?, 'running', ?, 48, ?, 't', 't')",
      ).run(JSON.stringify(input), done, owner);
      const repo = slotsWriter(writeHandle(db));
      for (let n = 0; n < done; n++) repo.insertOnly(slotAt(input, n), 't');
    })();
    db.close();
    return workspacePath;
  }
  const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid;

  it('is marked interrupted on open, and resumes to exactly total rows without duplicates', async () => {
    const workspacePath = await crashedJob(`${deadPid()}:gone`, 14);
    const { core } = newCore({ workspacePath });
    expect(await ok(core, 'jobs.get', { id: 'j1' })).toMatchObject({
      state: 'interrupted',
      done: 14,
      message: expect.stringMatching(/resume/),
    });
    await ok(core, 'jobs.resume', { id: 'j1' });
    expect(await ok(core, 'jobs.wait', { id: 'j1', timeoutMs: 60_000 })).toMatchObject({ state: 'done', done: 48 });
    expect(countRows(workspacePath)).toEqual({ rows: 48, distinct: 48 });
  });

  it('a job owned by this process but by no live core is interrupted too', async () => {
    const workspacePath = await crashedJob(`${process.pid}:closed-core`, 0);
    const { core } = newCore({ workspacePath });
    expect((await ok(core, 'jobs.get', { id: 'j1' })).state).toBe('interrupted');
  });

  it('a job owned by a live process is left alone', async () => {
    const workspacePath = await crashedJob(`${process.ppid}:other-app`, 0);
    const { core } = newCore({ workspacePath });
    expect((await ok(core, 'jobs.get', { id: 'j1' })).state).toBe('running');
    expect((await fail(core, 'jobs.resume', { id: 'j1' })).code).toBe('CONFLICT');
  });

  it('a live pid that started after the job was written is another program (pid reused): interrupted', async () => {
    const start = processStartTime(process.ppid);
    if (start === null) return; // the platform does not tell start times: the pid alone is judged
    const reused = await crashedJob(`${process.ppid}@not-${start}:crashed-app`, 0);
    expect((await ok(newCore({ workspacePath: reused }).core, 'jobs.get', { id: 'j1' })).state).toBe('interrupted');
    const same = await crashedJob(`${process.ppid}@${start}:other-app`, 0);
    expect((await ok(newCore({ workspacePath: same }).core, 'jobs.get', { id: 'j1' })).state).toBe('running');
  });
});

describe('jobs refused before they start', () => {
  it('an invalid dimension is INVALID_INPUT and starts no job', async () => {
    const { core } = newCore();
    const bad: [GridInput, string][] = [
      [{ ...SMALL, referenceDates: ['2026-01-01', '2026-13-01'] }, 'referenceDates.1'],
      [{ ...SMALL, referenceDates: ['2026-02-30'] }, 'referenceDates.0'],
      [{ ...SMALL, serviceSets: [['gmail'], ['gmail', 'slack' as 'gmail']] }, 'serviceSets.1.1'],
      [{ ...SMALL, categories: [] }, 'categories'],
      [{ ...SMALL, difficulties: ['impossible' as 'easy'] }, 'difficulties.0'],
    ];
    for (const [input, path] of bad) {
      const err = await fail(core, 'plan.generateGrid', input);
      expect(err.code, path).toBe('INVALID_INPUT');
      expect(
        err.issues?.map((i) => i.path.join('.')),
        path,
      ).toContain(path);
    }
    const huge = {
      ...SMALL,
      categories: Array.from({ length: 100 }, (_, i) => `c${i}`),
      referenceDates: Array.from({ length: 1000 }, () => '2026-01-01'),
      serviceSets: Array.from({ length: 13 }, () => ['gmail' as const]),
    };
    expect((await fail(core, 'plan.generateGrid', huge)).message).toMatch(/at most 5,000,000/);
    expect(await ok(core, 'jobs.list', {})).toEqual([]);
  });

  it("jobs on ':memory:' are refused with a clear message", async () => {
    const { core } = newCore({ workspacePath: ':memory:' });
    const err = await fail(core, 'plan.generateGrid', SMALL);
    expect(err.code).toBe('WORKSPACE_ERROR');
    expect(err.message).toMatch(/workspace file/);
    expect(await ok(core, 'jobs.list', {})).toEqual([]);
  });

  it('unknown jobs are NOT_FOUND', async () => {
    const { core } = newCore();
    for (const name of ['jobs.get', 'jobs.cancel', 'jobs.resume', 'jobs.wait'])
      expect((await fail(core, name, { id: 'nope' })).code, name).toBe('NOT_FOUND');
  });
});
