import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { migrate } from '../../src/main/core/db/migrate';
import { MIGRATIONS } from '../../src/main/core/db/migrations';
import { ok } from '../helpers/call';
import { FIXED_NOW, tempDir } from '../helpers/test-core';

const at = (name: string) => MIGRATIONS.findIndex((m) => m.name === name);
const T = '2026-02-01T00:00:00.000Z';
const cores: Core[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

/** A trajectory row as 0009–0012 define it (bucket still copied onto it). */
function insertTrajectory(db: Database.Database, taskId: string, trial: number, completion: number, bucket: string) {
  db.prepare(
    `INSERT INTO trajectories (task_id, trace_id, content_hash, model, agent, source, source_format, source_task_id,
       trial, collection, bucket, message_count, tool_call_count, char_count, completion, score, passed, graded,
       created_at)
     VALUES (?, ?, ?, 'm', 'm', 'import', 'messages-jsonl', ?, ?, 'c', ?, 2, 0, 10, ?, ?, ?, 1, ?)`,
  ).run(taskId, `${taskId}/${trial}`, `${taskId}-${trial}`, taskId, trial, bucket, completion, completion, 1, T);
}

describe('0013-bucket-join on a workspace holding curated trajectories', () => {
  it('drops the copied bucket, keeps every decision and fills the running sums at the next open', async () => {
    const file = path.join(tempDir(), 'old.coworkenv.db');
    const db = new Database(file);
    migrate(db, file, at('0013-bucket-join'));
    db.prepare("INSERT INTO collections (name, created_at, updated_at) VALUES ('c', ?, ?)").run(T, T);
    for (const [trial, c] of [0.2, 0.9, 0.4].entries()) insertTrajectory(db, 'T_keep', trial, c, 'KEEP');
    insertTrajectory(db, 'T_orphan', 0, 1, 'TRIVIAL');
    // T_keep's decision lives in curation_tasks (stale statistics); T_orphan's only on its trajectory.
    db.prepare(
      `INSERT INTO curation_tasks (task_id, attempts, scored, passes, pass_known, bucket, stats_at)
       VALUES ('T_keep', 0, 0, 0, 0, 'KEEP', ?)`,
    ).run(T);
    db.prepare("DELETE FROM curation_tasks WHERE task_id = 'T_orphan'").run();
    migrate(db, file);
    const columns = (db.prepare('PRAGMA table_info(trajectories)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('bucket');
    expect(db.prepare("SELECT task_id, bucket FROM curation_tasks WHERE task_id = 'T_orphan'").get()).toEqual({
      task_id: 'T_orphan',
      bucket: 'TRIVIAL',
    });
    expect(db.prepare('SELECT task_id FROM curation_dirty ORDER BY task_id').all()).toEqual([
      { task_id: 'T_keep' },
      { task_id: 'T_orphan' },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();

    const core = createCore({ workspacePath: file, clock: () => FIXED_NOW, watchIntervalMs: 0 });
    cores.push(core);
    const tasks = new Map((await ok(core, 'curation.tasks', { limit: 10 })).rows.map((r) => [r.task_id, r]));
    expect(tasks.get('T_keep')).toMatchObject({ bucket: 'KEEP', attempts: 3, scored: 3, best_completion: 0.9 });
    expect(tasks.get('T_keep')!.mean_completion).toBeCloseTo(0.5, 12);
    expect(tasks.get('T_orphan')).toMatchObject({ bucket: 'TRIVIAL', attempts: 1, suggested: 'TRIVIAL' });
    const keep = await ok(core, 'trajectories.list', {
      filters: [{ field: 'bucket', operator: 'AND', conditions: [{ op: 'equals', value: 'KEEP' }] }],
    });
    expect(keep.rows.map((r) => [r.task_id, r.bucket])).toEqual([
      ['T_keep', 'KEEP'],
      ['T_keep', 'KEEP'],
      ['T_keep', 'KEEP'],
    ]);
    // The open filled the running sums later batches add to (values in trajectory id order).
    const sums = new Database(file);
    try {
      const row = sums.prepare("SELECT value_sum, score_n, last_id FROM curation_tasks WHERE task_id = 'T_keep'").get();
      expect(row).toEqual({ value_sum: 0.2 + 0.9 + 0.4, score_n: 3, last_id: 3 });
    } finally {
      sums.close();
    }
  });
});
