import { createHash } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { migrate } from '../../src/main/core/db/migrate';
import { MIGRATIONS } from '../../src/main/core/db/migrations';
import { APPLICATION_ID } from '../../src/main/core/db/sqlite';
import { dumpsCompact, type PyValue } from '../../src/main/core/py/pyjson';
import { readTrace, writeTrace } from '../../src/main/core/traces';
import { ok } from '../helpers/call';
import { synthTrajectory } from '../helpers/claw-traces';
import { hasGoldens } from '../helpers/goldens';
import { FIXED_NOW, tempDir } from '../helpers/test-core';

const BEFORE = MIGRATIONS.findIndex((m) => m.name === '0009-trajectories-v2');
const cores: Core[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

/** A workspace at the schema before 0009, holding what trajectories.importTrace wrote then (0005's tables). */
function oldWorkspace(traces: { taskId: string; trace: string; graded: boolean; score: number | null }[]): string {
  const file = path.join(tempDir(), 'old.coworkenv.db');
  const db = new Database(file);
  migrate(db, file, BEFORE);
  expect(db.pragma('user_version', { simple: true })).toBe(BEFORE);
  const row = db.prepare(
    `INSERT INTO trajectories (task_id, trace_id, content_hash, model, source, message_count, tool_call_count, ` +
      `char_count,
       completion, safety, robustness, score, passed, graded, checks_origin, created_at)
     VALUES (?, ?, ?, 'claude-sonnet-4-5', 'trace-import', ?, ?, 1000, ?, ?, ?, ?, ?, ?, ?, ` +
      `'2026-02-01T00:00:00.000Z')`,
  );
  const body = db.prepare(
    'INSERT INTO trajectory_bodies (trajectory_id, trace, trajectory, grade) VALUES (?, ?, ?, ?)',
  );
  for (const t of traces) {
    const traj = readTrace(t.trace).trajectory;
    const g = t.graded;
    const id = Number(
      row.run(
        t.taskId,
        traj.trace!.trace_id,
        createHash('sha256').update(t.trace).digest('hex'),
        traj.messages.length,
        traj.dispatches.length,
        g ? 0.5 : null,
        g ? 1 : null,
        g ? 1 : null,
        t.score,
        g ? 0 : null,
        g ? 1 : 0,
        g ? 'derived_from_task_yaml' : null,
      ).lastInsertRowid,
    );
    const json = dumpsCompact(JSON.parse(JSON.stringify(traj)) as PyValue);
    body.run(id, t.trace, json, null); // the grade JSON is carried over untouched; none is needed here
  }
  db.close();
  return file;
}

describe('migration 0009: trajectories v2', () => {
  it('an empty workspace of the previous version migrates to head with no collection made up', () => {
    const file = oldWorkspace([]);
    const core = createCore({ workspacePath: file, clock: () => FIXED_NOW, watchIntervalMs: 0 });
    cores.push(core);
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    expect(db.prepare('SELECT count(*) AS n FROM collections').get()).toEqual({ n: 0 });
    db.close();
  });

  it.skipIf(!hasGoldens)(
    'keeps every stored trace: ids, scores, bytes; fills the new columns and the search index',
    async () => {
      const t1 = writeTrace(synthTrajectory('T018_ticket_triage', { finalText: 'legacy marmalade answer' }));
      const t2 = writeTrace({
        ...synthTrajectory('T018_ticket_triage'),
        trace: { ...synthTrajectory('T018_ticket_triage').trace!, trace_id: '11111111-2222-4333-8444-555555555555' },
      });
      const t3 = writeTrace(synthTrajectory('T002_email_triage'));
      const file = oldWorkspace([
        { taskId: 'T018_ticket_triage', trace: t1, graded: true, score: 0.4 },
        { taskId: 'T018_ticket_triage', trace: t2, graded: true, score: 0.6 },
        { taskId: 'T002_email_triage', trace: t3, graded: false, score: null },
      ]);
      const core = createCore({ workspacePath: file, clock: () => FIXED_NOW, checkOutput: true, watchIntervalMs: 0 });
      cores.push(core);
      const { rows } = await ok(core, 'trajectories.list', {});
      const end = synthTrajectory('T018_ticket_triage').end!;
      expect(rows.map((r) => [r.id, r.task_id, r.trial, r.score, r.graded, r.external])).toEqual([
        [1, 'T018_ticket_triage', 0, 0.4, true, false],
        [2, 'T018_ticket_triage', 1, 0.6, true, false],
        [3, 'T002_email_triage', 0, null, false, true],
      ]);
      for (const r of rows)
        expect(r).toMatchObject({
          source: 'import',
          source_format: 'claw-eval-trace',
          collection: 'claw-eval-traces',
          source_task_id: r.task_id,
          source_reward: 0.88,
          source_success: true,
          agent: 'claude-sonnet-4-5',
          valid: true,
          superseded: false,
          bucket: null,
          include_override: null,
          run_id: null,
        });
      expect(rows[0]).toMatchObject({ tokens: end.total_tokens, duration_ms: Math.round(end.wall_time_s * 1000) });
      for (const [id, text] of [
        [1, t1],
        [2, t2],
        [3, t3],
      ] as const)
        expect((await ok(core, 'trajectories.exportTrace', { id })).traceJsonl).toBe(text);
      const got = await ok(core, 'trajectories.get', { id: 1 });
      expect(got.trajectory.messages.at(-1)!.content).toBe('legacy marmalade answer');
      const hit = await ok(core, 'trajectories.search', { query: 'marmalade' });
      expect(hit.hits.map((h) => h.id)).toEqual([1]);
      expect(await ok(core, 'trajectories.collections', {})).toEqual([
        expect.objectContaining({ name: 'claw-eval-traces', trajectories: 3, tasks: 2 }),
      ]);
      // The same trace imported again into the same collection is still a duplicate of the migrated row.
      const again = await ok(core, 'trajectories.importTrace', { traceJsonl: t1 });
      expect(again).toMatchObject({ id: 1, duplicate: true });
    },
  );
});
