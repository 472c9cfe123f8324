import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/main/core/db/sqlite';
import { curationWorkspace } from '../helpers/curation-fill';
import { REPO_ROOT, tempDir } from '../helpers/test-core';

const BIN = path.join(REPO_ROOT, 'bin/coworkenv.js');
const built = fs.existsSync(path.join(REPO_ROOT, 'out/main/cli.js'));

/** What the invariant reads: each distinct task bucket, trajectories without a task row, and the log. */
function state(file: string) {
  const db = openDb(file, { readOnly: true });
  try {
    const buckets = (db.prepare('SELECT DISTINCT bucket AS b FROM curation_tasks').all() as { b: string | null }[]).map(
      (r) => r.b,
    );
    // A trajectory's bucket is its task's (the export INTERFACE): every trajectory needs its task's row.
    const orphans = (
      db
        .prepare(
          'SELECT count(*) AS n FROM trajectories t WHERE NOT EXISTS ' +
            '(SELECT 1 FROM curation_tasks c WHERE c.task_id = t.task_id)',
        )
        .get() as { n: number }
    ).n;
    const batches = db
      .prepare(
        `SELECT b.id, b.value, b.changed, (SELECT count(*) FROM curation_changes c WHERE c.batch_id = b.id) AS rows
         FROM curation_batches b ORDER BY id`,
      )
      .all() as { id: number; value: string; changed: number; rows: number }[];
    const tasks = (db.prepare('SELECT count(*) AS n FROM curation_tasks').get() as { n: number }).n;
    return { buckets, orphans, batches, tasks };
  } finally {
    db.close();
  }
}

/**
 * Where a kill is aimed: `before` the assignment's transaction (this test holds the write lock from the CLI's start
 * until the CLI is dead, so its transaction cannot have begun, whatever the machine's speed), `during` it (as soon as
 * a probe finds the write lock taken), `after` its commit (as soon as the new batch can be read, while the CLI still
 * prints and closes). What was seen when the signal went is the case it counts as.
 */
type Aim = 'before' | 'during' | 'after';
type Seen = Aim | 'finished';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether another connection holds the write lock: BEGIN IMMEDIATE answers SQLITE_BUSY at once (timeout 0). */
function lockTaken(probe: Database.Database): boolean {
  try {
    probe.exec('BEGIN IMMEDIATE');
    probe.exec('ROLLBACK');
    return false;
  } catch (err) {
    if (/^SQLITE_BUSY/.test((err as { code?: string }).code ?? '')) return true;
    throw err;
  }
}

/** Runs `coworkenv curate assign --all` and SIGKILLs it at `aim`; answers what was seen when it was killed. */
async function assignAndKill(file: string, bucket: string, aim: Aim | 'none', batchesBefore: number): Promise<Seen> {
  const probe = new Database(file, { timeout: 0 });
  const batches = probe.prepare('SELECT count(*) AS n FROM curation_batches');
  // Taken before the CLI starts and held until it is dead: a kill while we hold it is before its transaction.
  if (aim === 'before') probe.exec('BEGIN IMMEDIATE');
  const child = spawn(
    process.execPath,
    [BIN, '--workspace', file, 'curate', 'assign', '--bucket', bucket, '--all', '--reason', `kill test ${bucket}`],
    { stdio: 'ignore' },
  );
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.on('exit', () => {
      exited = true;
      resolve();
    }),
  );
  let seen: Seen = 'finished';
  try {
    if (aim === 'before') {
      // Somewhere in the CLI's start, or while it waits for the lock (its busy timeout is 5 s): either is before.
      await sleep(20 + Math.random() * 250);
      if (!exited) seen = 'before';
    } else if (aim === 'during') {
      while (!exited && !lockTaken(probe)) await sleep(0);
      if (!exited) seen = 'during';
    } else if (aim === 'after') {
      while (!exited && (batches.get() as { n: number }).n === batchesBefore) await sleep(0);
      if (!exited) seen = 'after';
    }
    if (seen !== 'finished') child.kill('SIGKILL');
    await exit;
  } finally {
    if (probe.inTransaction) probe.exec('ROLLBACK');
    probe.close();
  }
  return seen;
}

describe.skipIf(!built)(
  `a bulk re-assignment killed at any point leaves all of it or none${built ? '' : ' (skipped: npm run build first)'}`,
  () => {
    let file: string;
    beforeAll(async () => {
      file = path.join(tempDir(), 'kill.coworkenv.db');
      await curationWorkspace(file, { tasks: 5_000, perTask: 10 });
    }, 120_000);

    it('kill -9 before, during and after the commit, in a loop: the old bucket on all tasks or the new', async () => {
      const aims: (Aim | 'none')[] = [
        ...Array.from({ length: 4 }, () => ['before', 'during', 'after'] as const).flat(),
        'none',
      ];
      const outcomes: string[] = [];
      let prev = state(file);
      expect(prev.buckets).toEqual([null]);
      for (const [i, aim] of aims.entries()) {
        const bucket = i % 2 === 0 ? 'KEEP' : 'TRIVIAL';
        const seen = await assignAndKill(file, bucket, aim, prev.batches.length);
        const s = state(file);
        expect(s.orphans).toBe(0);
        expect(s.buckets.length).toBe(1);
        const applied = s.batches.length === prev.batches.length + 1;
        outcomes.push(`${seen}:${applied ? 'all' : 'none'}`);
        if (applied) {
          const last = s.batches.at(-1)!;
          expect(s.buckets[0]).toBe(bucket);
          expect(last).toMatchObject({ value: bucket, changed: s.tasks, rows: s.tasks });
        } else {
          expect(s.batches.length).toBe(prev.batches.length);
          expect(s.buckets).toEqual(prev.buckets);
        }
        // Killed before the transaction began: nothing of it; after its commit was seen: all of it.
        if (seen === 'before') expect(applied).toBe(false);
        if (seen === 'after' || seen === 'finished') expect(applied).toBe(true);
        prev = s;
      }
      console.log(`kill -9 outcomes: ${outcomes.join(' ')}`);
      // Each case happened at least once, and the last run went to its end.
      for (const c of ['before', 'during', 'after']) expect(outcomes.some((o) => o.startsWith(`${c}:`))).toBe(true);
      expect(outcomes.at(-1)).toBe('finished:all');
    }, 240_000);
  },
);
