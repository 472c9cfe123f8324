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

function insertTrajectory(db: Database.Database, taskId: string, trial: number, completion: number) {
  db.prepare(
    `INSERT INTO trajectories (task_id, trace_id, content_hash, model, agent, source, source_format, source_task_id,
       trial, collection, message_count, tool_call_count, char_count, completion, score, passed, graded, created_at)
     VALUES (?, ?, ?, 'm', 'm', 'import', 'messages-jsonl', ?, ?, 'c', 2, 0, 10, ?, ?, ?, 1, ?)`,
  ).run(
    taskId,
    `${taskId}/${trial}`,
    `${taskId}-${trial}`,
    taskId,
    trial,
    completion,
    completion,
    +(completion === 1),
    T,
  );
}

describe('0017-mean-buckets on a workspace curated under the min/max rule', () => {
  it('recomputes every suggestion by mean completion at the next open, logs the default it changes', async () => {
    const file = path.join(tempDir(), 'old.coworkenv.db');
    const db = new Database(file);
    migrate(db, file, at('0017-mean-buckets'));
    db.prepare("INSERT INTO collections (name, created_at, updated_at) VALUES ('c', ?, ?)").run(T, T);
    // Solved once in three: min/max said KEEP (best 1 ≥ 0.5), the mean 0.33 says UNSOLVABLE.
    for (const [trial, c] of [1, 0, 0].entries()) insertTrajectory(db, 'T_once', trial, c);
    // Nearly always right: min/max said KEEP (worst 0.9 < 0.95), the mean 0.967 says TRIVIAL.
    for (const [trial, c] of [1, 1, 0.9].entries()) insertTrajectory(db, 'T_mostly', trial, c);
    // The open before the upgrade settled these under the old rule; a person then assigned one.
    db.exec('DELETE FROM curation_dirty; DELETE FROM curation_added');
    db.prepare(
      `INSERT INTO curation_tasks (task_id, attempts, scored, passes, pass_known, suggested, bucket, stats_at)
       VALUES ('T_once', 3, 3, 1, 3, 'KEEP', 'KEEP', ?), ('T_mostly', 3, 3, 2, 3, 'KEEP', NULL, ?)`,
    ).run(T, T);
    // Someone edited document_extraction's rule (back to the old defaults): theirs, left alone.
    db.prepare(
      `INSERT INTO curation_batches (kind, target, value, who, at, reason, selection, changed)
       VALUES ('rules', 'rules', 'document_extraction', 'ana', ?, 'kept on purpose', '{}', 1)`,
    ).run(T);
    migrate(db, file);
    const allPass = db.prepare('SELECT pool, trivial_all_pass AS p FROM curation_rules ORDER BY pool').all();
    expect(allPass).toEqual([
      { pool: 'clawmark_harbor', p: 0 },
      { pool: 'document_extraction', p: 1 },
      { pool: 'mixed', p: 0 },
      { pool: 'multi_service_safety', p: 0 },
    ]);
    const logged = db
      .prepare(
        `SELECT b.value, b.who, c.before ->> '$.trivialAllPass' AS b4, c.after ->> '$.trivialAllPass' AS af
         FROM curation_batches b JOIN curation_changes c ON c.batch_id = b.id WHERE b.who LIKE 'migration%'
         ORDER BY b.value`,
      )
      .all();
    expect(logged).toEqual(
      ['clawmark_harbor', 'mixed', 'multi_service_safety'].map((value) => ({
        value,
        who: 'migration 0017-mean-buckets',
        b4: 1,
        af: 0,
      })),
    );
    db.close();

    const core = createCore({ workspacePath: file, clock: () => FIXED_NOW, watchIntervalMs: 0 });
    cores.push(core);
    const tasks = new Map((await ok(core, 'curation.tasks', { limit: 10 })).rows.map((r) => [r.task_id, r]));
    expect(tasks.get('T_once')).toMatchObject({ suggested: 'UNSOLVABLE', bucket: 'KEEP' });
    expect(tasks.get('T_mostly')).toMatchObject({ suggested: 'TRIVIAL', bucket: null });
  });

  it('a new workspace starts with the new defaults and an empty log', async () => {
    const file = path.join(tempDir(), 'new.coworkenv.db');
    const core = createCore({ workspacePath: file, clock: () => FIXED_NOW, watchIntervalMs: 0 });
    cores.push(core);
    const rules = await ok(core, 'curation.rules', {});
    expect(rules.map((r) => r.trivialAllPass)).toEqual([false, false, false, false]);
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM curation_batches').get()).toEqual({ n: 0 });
    db.close();
  });
});
