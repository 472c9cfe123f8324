import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { migrate } from '../../src/main/core/db/migrate';
import { MIGRATIONS } from '../../src/main/core/db/migrations';
import { ok } from '../helpers/call';
import { FIXED_NOW, tempDir } from '../helpers/test-core';

const at = (name: string) => MIGRATIONS.findIndex((m) => m.name === name);
const T = '2026-02-01T00:00:00.000Z';

type Row = {
  id: number;
  task: string;
  format: 'tau-bench-v1' | 'tau2-results' | 'messages-jsonl';
  trace: string;
  collection: string;
  run: number;
  reward: number;
  trial?: number;
  graded?: number;
  context?: number;
};

/** A trajectory row and its body as 0015 stores them (task_id is the source's id: the merge of issue 17). */
function insert(db: Database.Database, r: Row & { taskId?: string }) {
  db.prepare(
    `INSERT INTO trajectories (id, task_id, trace_id, content_hash, model, agent, source, source_format,
       source_task_id, source_reward, source_success, run_id, trial, collection, external, message_count,
       tool_call_count, char_count, completion, score, passed, graded, created_at)
     VALUES (?, ?, ?, ?, '', 'unknown', 'import', ?, ?, ?, ?, ?, ?, ?, ?, 4, 0, 40, ?, ?, ?, ?, ?)`,
  ).run(
    r.id,
    r.taskId ?? r.task,
    r.trace,
    `h${r.id}`,
    r.format,
    r.task,
    r.reward,
    r.reward,
    r.run,
    r.trial ?? 0,
    r.collection,
    r.graded ? 0 : 1,
    r.graded ? 0.9 : null,
    r.graded ? 0.9 : null,
    r.graded ? 1 : null,
    r.graded ?? 0,
    T,
  );
  db.prepare('INSERT INTO trajectory_bodies (trajectory_id, raw, context_id, grade) VALUES (?, ?, ?, ?)').run(
    r.id,
    Buffer.from('{}'),
    r.context ?? null,
    r.graded ? '{"completion":0.9}' : null,
  );
}

/**
 * 0016-task-source on a workspace of the previous version where τ-bench airline, τ-bench retail and
 * τ² airline task "12" had become one task with one curation decision (issue 17).
 */
describe('0016-task-source on a workspace where τ task ids of several sources merged', () => {
  const file = path.join(tempDir(), 'old.coworkenv.db');
  let db: Database.Database;
  let core: Core;
  beforeAll(() => {
    db = new Database(file);
    migrate(db, file, at('0016-task-source'));
    const collection = db.prepare(
      'INSERT INTO collections (name, supersedes, created_at, updated_at) VALUES (?, ?, ?, ?)',
    );
    collection.run('old', '[]', T, T);
    collection.run('new', '["old"]', '2026-02-02T00:00:00.000Z', T);
    collection.run('other', '[]', T, T);
    const run = db.prepare(
      `INSERT INTO runs (id, name, agent_kind, agent_label, state, settings, created_at)
       VALUES (?, 'import', 'imported', 'imported', 'done', ?, ?)`,
    );
    run.run(1, '{"format":["tau-bench"],"supersedes":[],"taskId":null}', T);
    run.run(2, '{"format":["tau-bench"],"supersedes":[],"taskId":"T9"}', T);
    db.prepare("INSERT INTO trajectory_contexts (id, format, hash, content) VALUES (1, 'tau2-results', 'x', ?)").run(
      JSON.stringify({ info: { environment_info: { domain_name: 'airline', policy: '…' } }, tasks: [] }),
    );
    const tb = (domain: string, task: string, trial: number) => `tau-bench/${domain}/${task}/${trial}`;
    const old = { format: 'tau-bench-v1', collection: 'old', run: 1 } as const;
    insert(db, { ...old, id: 1, task: '12', trace: tb('airline', '12', 0), reward: 1 });
    insert(db, { ...old, id: 2, task: '12', trace: tb('airline', '12', 1), reward: 0, trial: 1 });
    insert(db, { ...old, id: 3, task: '12', trace: tb('retail', '12', 0), reward: 1 });
    insert(db, {
      id: 4,
      task: '12',
      format: 'tau2-results',
      trace: 'b762-sim',
      collection: 'new',
      run: 1,
      reward: 1,
      context: 1,
    });
    insert(db, {
      id: 5,
      task: '12',
      format: 'messages-jsonl',
      trace: 'messages-jsonl/12/0',
      collection: 'other',
      run: 1,
      reward: 0,
    });
    insert(db, { ...old, id: 6, task: '7', taskId: 'T9', trace: tb('airline', '7', 0), reward: 1, run: 2 });
    insert(db, { ...old, id: 7, task: '5', trace: tb('airline', '5', 0), reward: 1, graded: 1 });
    // τ² "12" in old too: new re-ran τ² airline 12, so this one stays superseded.
    insert(db, { ...old, id: 8, task: '12', format: 'tau2-results', trace: 'a9-sim', reward: 0, context: 1 });
    // As 0015 computed it: collection new re-ran task "12", so all of old's "12" rows were superseded.
    db.prepare(
      "UPDATE trajectories SET superseded = 1, superseded_by = 'new' WHERE collection = 'old' AND task_id = '12'",
    ).run();
    const task = db.prepare(
      `INSERT INTO curation_tasks (task_id, pool, attempts, scored, passes, pass_known, bucket, stats_at)
       VALUES (?, ?, 0, 0, 0, 0, ?, ?)`,
    );
    task.run('12', 'multi_service_safety', 'KEEP', T);
    task.run('5', 'mixed', 'TRIVIAL', T);
    task.run('T9', 'mixed', null, T);
    const batch = db.prepare(
      `INSERT INTO curation_batches (id, kind, target, value, who, at, reason, selection, changed)
       VALUES (?, 'assign', 'bucket', ?, 'ana', ?, 'reviewed', ?, 1)`,
    );
    batch.run(1, 'KEEP', T, '{"tasks":["12"]}');
    batch.run(2, 'TRIVIAL', T, '{"tasks":["5"]}');
    db.prepare("INSERT INTO curation_changes VALUES (1, '12', NULL, 'KEEP'), (2, '5', NULL, 'TRIVIAL')").run();
    migrate(db, file);
  });
  afterAll(async () => {
    db?.close();
    await core?.close();
  });

  it('re-keys imported τ rows by benchmark and domain; other sources and --task imports keep their ids', () => {
    const rows = db.prepare(
      'SELECT id, task_id, source_task_id, task_source, superseded FROM trajectories ORDER BY id',
    );
    expect(rows.all()).toEqual([
      { id: 1, task_id: 'tau-bench/airline/12', source_task_id: '12', task_source: 'tau-bench/airline', superseded: 0 },
      { id: 2, task_id: 'tau-bench/airline/12', source_task_id: '12', task_source: 'tau-bench/airline', superseded: 0 },
      { id: 3, task_id: 'tau-bench/retail/12', source_task_id: '12', task_source: 'tau-bench/retail', superseded: 0 },
      { id: 4, task_id: 'tau2/airline/12', source_task_id: '12', task_source: 'tau2/airline', superseded: 0 },
      { id: 5, task_id: '12', source_task_id: '12', task_source: null, superseded: 0 },
      { id: 6, task_id: 'T9', source_task_id: '7', task_source: 'tau-bench/airline', superseded: 0 },
      { id: 7, task_id: 'tau-bench/airline/5', source_task_id: '5', task_source: 'tau-bench/airline', superseded: 0 },
      { id: 8, task_id: 'tau2/airline/12', source_task_id: '12', task_source: 'tau2/airline', superseded: 1 },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });

  it("takes back a grade against another task's checks (equal ids), saying so in the row's warnings", () => {
    expect(
      db.prepare('SELECT graded, external, completion, score, warnings FROM trajectories WHERE id = 7').get(),
    ).toEqual({
      graded: 0,
      external: 1,
      completion: null,
      score: null,
      warnings: 1,
    });
    expect(db.prepare('SELECT grade FROM trajectory_bodies WHERE trajectory_id = 7').get()).toEqual({ grade: null });
    const { texts } = db.prepare('SELECT texts FROM trajectory_warnings WHERE trajectory_id = 7').get() as {
      texts: string;
    };
    expect(JSON.parse(texts)).toEqual([expect.stringContaining('graded against the checks of workspace task 5')]);
    expect(db.prepare('SELECT count(*) AS n FROM trajectories WHERE warnings > 0').get()).toEqual({ n: 1 });
  });

  it('keeps the merged decision on every source, logs the copy, and the log still undoes on the new ids', async () => {
    const log = db.prepare(
      "SELECT id, kind, target, reason, changed FROM curation_batches WHERE who LIKE 'migration 0016%'",
    );
    expect(log.all()).toEqual([
      expect.objectContaining({ kind: 'assign', target: 'bucket', changed: 3 }),
      expect.objectContaining({ kind: 'pool', target: 'pool', changed: 3 }),
    ]);
    const items = (batch: number) =>
      db.prepare('SELECT item, after FROM curation_changes WHERE batch_id = ? ORDER BY item').all(batch);
    expect(items(1)).toEqual(
      ['12', 'tau-bench/airline/12', 'tau-bench/retail/12', 'tau2/airline/12'].map((item) => ({ item, after: 'KEEP' })),
    );
    expect(items(2)).toEqual([{ item: 'tau-bench/airline/5', after: 'TRIVIAL' }]);
    db.close();

    core = createCore({ workspacePath: file, clock: () => FIXED_NOW, watchIntervalMs: 0 });
    const page = await ok(core, 'curation.tasks', { limit: 20 });
    const got = Object.fromEntries(
      page.rows.map((r) => [r.task_id, [r.task_source, r.bucket, r.pool, r.attempts, r.mean_completion]]),
    );
    expect(got).toEqual({
      '12': [null, 'KEEP', 'multi_service_safety', 1, 0],
      T9: [null, null, 'mixed', 1, 1],
      'tau-bench/airline/12': ['tau-bench/airline', 'KEEP', 'multi_service_safety', 2, 0.5],
      'tau-bench/retail/12': ['tau-bench/retail', 'KEEP', 'multi_service_safety', 1, 1],
      'tau2/airline/12': ['tau2/airline', 'KEEP', 'multi_service_safety', 1, 1],
      'tau-bench/airline/5': ['tau-bench/airline', 'TRIVIAL', 'mixed', 1, 1],
    });
    const undo = await ok(core, 'curation.undo', { batchId: 1, reason: 'test' });
    expect(undo).toMatchObject({ changed: 4, conflicts: 0 });
  });
});
