import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core';
import { settleCuration } from '../../src/main/core/curation/settle';
import { recomputeStats, VALUE_SQL } from '../../src/main/core/curation/stats';
import { type Db, openDb, writeHandle } from '../../src/main/core/db/sqlite';
import { tempDir } from '../helpers/test-core';

const NOW = '2026-03-01T09:00:00.000Z';

/** A small deterministic generator (mulberry32): the same rounds on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every curation row, statistics and sums, without the time they were written. */
const rows = (db: Db) =>
  db
    .prepare('SELECT * FROM curation_tasks ORDER BY task_id')
    .all()
    .map((r) => {
      const { stats_at: _at, ...rest } = r as Record<string, unknown>;
      return rest;
    });

describe('settling adds new rows to the stored sums and gives what a full recompute gives', () => {
  let db: Db;
  beforeAll(async () => {
    const file = path.join(tempDir(), 'settle.coworkenv.db');
    await createCore({ workspacePath: file, watchIntervalMs: 0 }).close();
    db = openDb(file);
    db.prepare("INSERT INTO collections (name, created_at, updated_at) VALUES ('c', ?, ?)").run(NOW, NOW);
  });
  afterAll(() => db?.close());

  it('random inserts, updates and deletes over 60 commits, then a full recompute changes nothing', () => {
    const rnd = random(11);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    const value = () => pick([null, 0, 1, 0.5, 1 / 3, 0.1 + 0.2, rnd(), rnd() * 7 - 2, 0.95 + rnd() / 20]);
    const tasks = Array.from({ length: 12 }, (_, i) => `task-${i}`);
    let n = 0;
    const insert = db.prepare(
      `INSERT INTO trajectories (id, task_id, trace_id, content_hash, model, agent, source, source_format,
         source_task_id, source_reward, source_success, source_completion, trial, collection, valid, superseded,
         message_count, tool_call_count, char_count, completion, score, passed, graded, created_at)
       VALUES (?, ?, ?, ?, 'm', 'm', 'import', 'messages-jsonl', ?, ?, ?, ?, ?, 'c', ?, ?, 2, 0, 10, ?, ?, ?, 0, ?)`,
    );
    const ids = () => (db.prepare('SELECT id FROM trajectories').all() as { id: number }[]).map((r) => r.id);
    const kinds = { inserted: 0, explicitLowId: 0, updated: 0, deleted: 0 };
    for (let round = 0; round < 60; round++) {
      db.transaction(() => {
        const ops = 1 + Math.floor(rnd() * 8);
        for (let k = 0; k < ops; k++) {
          const op = rnd();
          const existing = ids();
          if (op < 0.6 || existing.length < 5) {
            n++;
            const task = pick(tasks);
            // Now and then an id below the task's rows (a gap left by a delete): settle must notice it.
            const free =
              existing.length && rnd() < 0.1 ? [...Array(Math.max(...existing)).keys()].map((i) => i + 1) : [];
            const gap = free.find((i) => !existing.includes(i));
            if (gap !== undefined) kinds.explicitLowId++;
            const pass = pick([null, 0, 1]);
            insert.run(
              gap ?? null,
              task,
              `t${n}`,
              `h${n}`,
              task,
              value(),
              pick([null, 0, 1]),
              value(),
              n,
              rnd() < 0.9 ? 1 : 0,
              rnd() < 0.1 ? 1 : 0,
              value(),
              value(),
              pass,
              NOW,
            );
            kinds.inserted++;
          } else if (op < 0.85) {
            const id = pick(existing);
            const col = pick(['completion', 'source_reward', 'valid', 'superseded', 'passed', 'score', 'task_id']);
            const v =
              col === 'valid' || col === 'superseded'
                ? pick([0, 1])
                : col === 'passed'
                  ? pick([null, 0, 1])
                  : col === 'task_id'
                    ? pick(tasks)
                    : value();
            db.prepare(`UPDATE trajectories SET ${col} = ? WHERE id = ?`).run(v, id);
            kinds.updated++;
          } else {
            db.prepare('DELETE FROM trajectories WHERE id = ?').run(pick(existing));
            kinds.deleted++;
          }
        }
        settleCuration(writeHandle(db), NOW);
      })();
      if (round % 20 === 19) {
        const settled = rows(db);
        db.transaction(() => recomputeStats(writeHandle(db), 'all', NOW))();
        expect(rows(db)).toEqual(settled);
      }
    }
    expect(kinds.explicitLowId).toBeGreaterThan(0);
    expect(kinds.deleted).toBeGreaterThan(0);
    expect(kinds.updated).toBeGreaterThan(0);
    // Statistics are those of the rows: a spot check of one task against the rows themselves.
    const t = rows(db).find((r) => (r.scored as number) > 2)!;
    const vals = (
      db
        .prepare(
          `SELECT ${VALUE_SQL} AS v FROM trajectories
           WHERE task_id = ? AND valid = 1 AND superseded = 0 AND v IS NOT NULL ORDER BY id`,
        )
        .all(t.task_id) as { v: number }[]
    ).map((r) => r.v);
    expect(t.scored).toBe(vals.length);
    expect(t.mean_completion).toBeCloseTo(vals.reduce((a, b) => a + b, 0) / vals.length, 12);
    expect(t.best_completion).toBe(Math.max(...vals));
    expect(t.min_completion).toBe(Math.min(...vals));
  });
});
