/**
 * A trajectories grid on realistic data: the shared corpus imported as recorded (τ-bench's 50 tasks × 4
 * trials with rewards 0/1, most tasks never solved; τ²-bench; the τ² SFT rows), then grown in SQLite to `n`
 * rows. Each copy keeps the imported rewards, completion and scores; copies are grouped into new tasks of
 * `perGroup` cycles (a τ-bench task of 4 trials becomes one of 4 × perGroup attempts with the same mix of
 * rewards), so rewards tie everywhere and each task's statistics are its recorded task's. The buckets come
 * from real curation: the workspace is settled, then every task is assigned its suggested bucket
 * (curation.applySuggestions on all tasks), which is timed: the bulk re-assignment a grid index must not
 * make slow. Bodies are not copied: the grid never reads them.
 */
import path from 'node:path';
import { createCore } from '../../src/main/core';
import { openDb } from '../../src/main/core/db/sqlite';
import { bundleWorker, runJobProcess } from './job-process';
import { writeCorpusAsRecorded } from './trajectory-corpus';

const CHUNK = 100_000;

export type RealisticGrid = { rows: number; tasks: number; buckets: Record<string, number>; applyMs: number };

/** Copies of the imported rows 1..base up to `n` rows; copy cycle c belongs to task group c / perGroup. */
function grow(file: string, n: number, base: number, perGroup: number): void {
  const db = openDb(file);
  try {
    const cols = (db.prepare('PRAGMA table_info(trajectories)').all() as { name: string }[]).map((c) => c.name);
    const set: Record<string, string> = {
      id: 'NULL',
      task_id: "b.task_id || '~' || (g.i / ?3 / ?4)",
      trial: 'b.trial + 10 * ((g.i / ?3) % ?4)',
      trace_id: "b.trace_id || '-' || g.i",
      content_hash: "b.content_hash || '-' || g.i",
    };
    const insert = db.prepare(`
      WITH RECURSIVE g(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM g WHERE i + 1 < ?2)
      INSERT INTO trajectories (${cols.join(', ')})
      SELECT ${cols.map((c) => set[c] ?? `b.${c}`).join(', ')} FROM g JOIN trajectories b ON b.id = g.i % ?3 + 1`);
    let have = base;
    while (have < n) {
      const upTo = Math.min(n, have + CHUNK);
      // BigInt binds INTEGER: the divisions above must be integer divisions.
      db.transaction(() => insert.run({ 1: BigInt(have), 2: BigInt(upTo), 3: BigInt(base), 4: BigInt(perGroup) }))();
      have = upTo;
    }
  } finally {
    db.close();
  }
}

export async function realisticGrid(dir: string, n: number, perGroup = 10): Promise<RealisticGrid & { file: string }> {
  const file = path.join(dir, 'realistic.coworkenv.db');
  await createCore({ workspacePath: file, watchIntervalMs: 0 }).close();
  const jsonl = path.join(dir, 'corpus.jsonl');
  const base = writeCorpusAsRecorded(jsonl);
  runJobProcess('bench/lib/import-run.ts', [file, jsonl, bundleWorker()]);
  grow(file, n, base, perGroup);
  const core = createCore({ workspacePath: file, watchIntervalMs: 0 }); // settles every new row's task
  let applyMs = 0;
  try {
    const t0 = performance.now();
    const r = await core.dispatch('curation.applySuggestions', { select: { all: true }, reason: 'bench: realistic' });
    applyMs = performance.now() - t0;
    if (!r.ok) throw new Error(r.error.message);
  } finally {
    await core.close();
  }
  const db = openDb(file, { readOnly: true });
  try {
    const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    const buckets = Object.fromEntries(
      (
        db
          .prepare(
            `SELECT coalesce(c.bucket, '(none)') AS b, count(*) AS n FROM trajectories t
             LEFT JOIN curation_tasks c ON c.task_id = t.task_id GROUP BY 1`,
          )
          .all() as { b: string; n: number }[]
      ).map((x) => [x.b, x.n]),
    );
    return {
      file,
      rows: one('SELECT count(*) AS n FROM trajectories'),
      tasks: one('SELECT count(*) AS n FROM curation_tasks'),
      buckets,
      applyMs,
    };
  } finally {
    db.close();
  }
}
