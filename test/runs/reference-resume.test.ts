import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/shared/contract/entities/run';
import { generatedTasks } from '../helpers/generated-tasks';
import { runWorkspace } from '../helpers/run-workspace';
import { REPO_ROOT } from '../helpers/test-core';

const BUILT_CLI = path.join(REPO_ROOT, 'out/main/cli.js');

/**
 * A reference-agent run through the built CLI, whose episodes run in helper threads besides the
 * job's: killed with SIGKILL midway, it resumes with the pairs not stored, and every pair ends up
 * stored once with the score an uninterrupted run of the same seed gives it (perturbed, so scores vary).
 */
describe('a reference-agent run killed midway', { timeout: 300_000 }, () => {
  const t = runWorkspace(generatedTasks(20));
  afterAll(() => t.core.close());

  const cli = (args: string[]) =>
    spawn(process.execPath, [path.join(REPO_ROOT, 'bin/coworkenv.js'), '--workspace', t.workspacePath, ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const ended = (p: ReturnType<typeof cli>) => {
    let out = '';
    let err = '';
    p.stdout!.on('data', (d: Buffer) => void (out += d));
    p.stderr!.on('data', (d: Buffer) => void (err += d));
    return new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
      p.on('exit', (code) => resolve({ code, out, err })),
    );
  };
  const query = <T>(sql: string, ...params: unknown[]) => {
    const db = new Database(t.workspacePath, { readonly: true });
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  };
  const stored = () => query<{ n: number }>('SELECT count(*) AS n FROM trajectories')[0]!.n;
  const run = (collection: string) => [
    '--json',
    'run',
    '--tasks',
    'all',
    '--agent',
    'reference',
    '--trials',
    '100',
    '--collection',
    collection,
    '--seed',
    '3',
    '--skip-step',
    '0.2',
    '--prohibited-call',
    '0.3',
  ];

  it.skipIf(!fs.existsSync(BUILT_CLI))(
    'resumes with the pairs not stored; the same scores as a run not killed',
    async () => {
      await t.core.close(); // the CLI processes own the workspace now
      const first = cli(run('killed'));
      const firstEnded = ended(first);
      // Killed on the run's own progress line saying 300 are stored (an event: no poll with a deadline to miss on a
      // busy machine); 1,700 episodes are left, far more than the moment the kill takes.
      let progress = '';
      await new Promise<void>((resolve) =>
        first.stderr!.on('data', (d: Buffer) => {
          progress += d;
          if ([...progress.matchAll(/\((\d+)\/2000\)/g)].some((m) => Number(m[1]) >= 300)) resolve();
        }),
      );
      first.kill('SIGKILL');
      await firstEnded;
      const before = stored();
      expect(before).toBeGreaterThanOrEqual(300);
      expect(before).toBeLessThan(2000);

      const resumed = await ended(cli(['--json', 'run', '--resume', '1']));
      expect(resumed.code, resumed.err).toBe(0);
      const r = (JSON.parse(resumed.out.trim()) as { data: RunResult }).data;
      expect(r).toMatchObject({ planned: 2000, stored: 2000, graded: 2000, errors: 0, skipped: before });
      expect(r.pass_rate).toBeGreaterThan(0.2);
      expect(r.pass_rate).toBeLessThan(0.8);

      const again = await ended(cli(run('whole')));
      expect(again.code, again.err).toBe(0);
      const twice = query<{ n: number }>(
        'SELECT count(*) AS n FROM ' +
          '(SELECT 1 FROM trajectories GROUP BY collection, task_id, trial HAVING count(*) > 1)',
      );
      expect(twice[0]!.n).toBe(0);
      const scores = (collection: string) =>
        new Map(
          query<{ k: string; score: number }>(
            "SELECT task_id || '/' || trial AS k, score FROM trajectories WHERE collection = ?",
            collection,
          ).map((x) => [x.k, x.score]),
        );
      const killed = scores('killed');
      expect(killed.size).toBe(2000);
      expect(killed).toEqual(scores('whole'));
      expect(query<{ n: number }>('SELECT count(*) AS n FROM trajectory_bodies')[0]!.n).toBe(4000);
      // Bodies (most written from a helper's bytes) are TEXT whose sha256 is the row's content hash.
      const bodies = query<{ hash: string; json: string; type: string }>(
        'SELECT t.content_hash AS hash, b.trajectory AS json, typeof(b.trajectory) AS type ' +
          'FROM trajectories t JOIN trajectory_bodies b ON b.trajectory_id = t.id WHERE t.id % 10 = 0',
      );
      expect(bodies).toHaveLength(400);
      for (const b of bodies) {
        expect(b.type).toBe('text');
        expect(createHash('sha256').update(b.json).digest('hex')).toBe(b.hash);
      }
    },
  );
});
