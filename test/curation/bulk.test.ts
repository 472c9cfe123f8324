import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { openDb } from '../../src/main/core/db/sqlite';
import { fail, ok } from '../helpers/call';
import { curationWorkspace } from '../helpers/curation-fill';
import { createTestCore, tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

type State = Map<string, string | null>;

/**
 * Every task's assigned bucket, every trajectory's override, and how many trajectories have no curation row
 * for their task (the grid and the export read a trajectory's bucket through it: always 0).
 */
function snapshot(file: string): { buckets: State; overrides: Map<number, string | null>; orphans: number } {
  const db = openDb(file, { readOnly: true });
  try {
    const buckets = new Map(
      (
        db.prepare('SELECT task_id, bucket FROM curation_tasks').all() as { task_id: string; bucket: string | null }[]
      ).map((r) => [r.task_id, r.bucket]),
    );
    const overrides = new Map(
      (
        db.prepare('SELECT id, include_override AS o FROM trajectories').all() as { id: number; o: string | null }[]
      ).map((r) => [r.id, r.o]),
    );
    const orphans = (
      db
        .prepare(
          'SELECT count(*) AS n FROM trajectories t WHERE NOT EXISTS ' +
            '(SELECT 1 FROM curation_tasks c WHERE c.task_id = t.task_id)',
        )
        .get() as { n: number }
    ).n;
    return { buckets, overrides, orphans };
  } finally {
    db.close();
  }
}

describe('bulk re-assignment, the log, undo and redo', () => {
  let core: Core;
  let file: string;
  const mixed = {
    field: 'suggested' as const,
    operator: 'AND' as const,
    conditions: [{ op: 'equals' as const, value: 'KEEP' }],
  };

  beforeAll(async () => {
    file = path.join(tempDir(), 'bulk.coworkenv.db');
    await curationWorkspace(file, { tasks: 200, perTask: 5 });
    core = createTestCore({ workspacePath: file }).core;
  }, 60_000);
  afterAll(() => core?.close());

  it('refuses an assignment without a reason', async () => {
    const e = await fail(core, 'curation.assign', { bucket: 'KEEP', select: { all: true }, reason: '  ' });
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toMatch(/reason/);
  });

  it('assigns by selection, logs who, why, before/after, selection; the trajectories grid shows it', async () => {
    const r = await ok(core, 'curation.assign', {
      bucket: 'TRIVIAL',
      select: { tasks: ['task-000001', 'task-000011', 'task-000021'] },
      reason: 'always solved',
    });
    expect(r.changed).toBe(3);
    const s = snapshot(file);
    expect(s.orphans).toBe(0);
    expect(s.buckets.get('task-000011')).toBe('TRIVIAL');
    // A trajectory's bucket is its task's: the trajectories grid filters, lists and counts it through the task.
    const trivial = {
      field: 'bucket' as const,
      operator: 'AND' as const,
      conditions: [{ op: 'equals' as const, value: 'TRIVIAL' }],
    };
    const list = await ok(core, 'trajectories.list', { filters: [trivial], limit: 100 });
    expect(list.total).toBe(15);
    expect(new Set(list.rows.map((t) => t.task_id))).toEqual(new Set(['task-000001', 'task-000011', 'task-000021']));
    expect(list.rows.every((t) => t.bucket === 'TRIVIAL')).toBe(true);
    const values = await ok(core, 'trajectories.values', { field: 'bucket', filters: [], limit: 10 });
    expect(values.values).toEqual([
      { value: '', count: 985 },
      { value: 'TRIVIAL', count: 15 },
    ]);
    const b = await ok(core, 'curation.batch', { id: r.batchId! });
    expect(b.batch).toMatchObject({ kind: 'assign', value: 'TRIVIAL', reason: 'always solved', changed: 3 });
    expect(b.batch.who.length).toBeGreaterThan(0);
    expect(b.batch.selection).toEqual({ tasks: ['task-000001', 'task-000011', 'task-000021'] });
    expect(b.changes).toEqual([
      { item: 'task-000001', before: null, after: 'TRIVIAL' },
      { item: 'task-000011', before: null, after: 'TRIVIAL' },
      { item: 'task-000021', before: null, after: 'TRIVIAL' },
    ]);
  });

  it('assigns by filter (the grid filter model) in one batch; an unchanged repeat logs nothing', async () => {
    const keep = await ok(core, 'curation.ids', { filters: [mixed], limit: 1000 });
    const r = await ok(core, 'curation.assign', {
      bucket: 'KEEP',
      select: { where: { filters: [mixed] } },
      reason: 'mixed',
    });
    expect(r.changed).toBe(keep.total);
    const s = snapshot(file);
    for (const id of keep.ids) expect(s.buckets.get(id)).toBe('KEEP');
    expect(s.orphans).toBe(0);
    const again = await ok(core, 'curation.assign', {
      bucket: 'KEEP',
      select: { where: { filters: [mixed] } },
      reason: 'x',
    });
    expect(again).toEqual({ batchId: null, changed: 0, conflicts: 0 });
  });

  it('undo restores the exact prior state, redo the state after; later changes are conflicts, kept', async () => {
    const before = snapshot(file);
    const sugg = await ok(core, 'curation.applySuggestions', { select: { all: true }, reason: 'take the rules' });
    expect(sugg.changed).toBeGreaterThan(0);
    const after = snapshot(file);
    expect(after.buckets).not.toEqual(before.buckets);
    const u = await ok(core, 'curation.undo', {});
    expect(u.changed).toBe(sugg.changed);
    expect(snapshot(file)).toEqual(before);
    const r = await ok(core, 'curation.redo', {});
    expect(r.changed).toBe(sugg.changed);
    expect(snapshot(file)).toEqual(after);
    // A later batch changes one task; undoing the suggestions leaves that task alone.
    const one = [...after.buckets].find(([, b]) => b === 'UNSOLVABLE')![0];
    await ok(core, 'curation.assign', { bucket: 'KEEP', select: { tasks: [one] }, reason: 'worth a look' });
    const u2 = await ok(core, 'curation.undo', { batchId: sugg.batchId! });
    expect(u2.conflicts).toBe(1);
    expect(snapshot(file).buckets.get(one)).toBe('KEEP');
    expect((await fail(core, 'curation.undo', { batchId: sugg.batchId! })).code).toBe('CONFLICT');
  });

  it('sets and undoes trajectory overrides by ids and by a trajectories filter', async () => {
    const before = snapshot(file).overrides;
    const r = await ok(core, 'curation.override', {
      override: 'exclude',
      select: {
        where: {
          filters: [{ field: 'task_id', operator: 'AND', conditions: [{ op: 'equals', value: 'task-000005' }] }],
        },
      },
      reason: 'tool misuse',
    });
    expect(r.changed).toBe(5);
    const inc = await ok(core, 'curation.override', {
      override: 'include',
      select: { trajectories: [1, 2] },
      reason: 'gold',
    });
    expect(inc.changed).toBe(2);
    await ok(core, 'curation.undo', {});
    await ok(core, 'curation.undo', {});
    expect(snapshot(file).overrides).toEqual(before);
  });

  it('recomputes a task when its trajectories change; its rows stay in its bucket', async () => {
    const t = 'task-000003';
    await ok(core, 'curation.assign', { bucket: 'UNSOLVABLE', select: { tasks: [t] }, reason: 'r' });
    const rows = await ok(core, 'trajectories.list', {
      filters: [{ field: 'task_id', operator: 'AND', conditions: [{ op: 'equals', value: t }] }],
    });
    await ok(core, 'trajectories.delete', { ids: [rows.rows[0]!.id] });
    const page = await ok(core, 'curation.tasks', {
      filters: [{ field: 'task_id', operator: 'AND', conditions: [{ op: 'equals', value: t }] }],
    });
    expect(page.rows[0]!.attempts).toBe(4);
    expect(snapshot(file).orphans).toBe(0);
  });

  it('the CLI: assign prints tasks changed and the batch id; log, undo and redo speak JSON', async () => {
    const cli = (...argv: string[]) => runCliCaptured(['--workspace', file, ...argv]);
    const a = await cli(
      'curate',
      'assign',
      '--bucket',
      'unsolvable',
      '--tasks',
      'task-000002,task-000012',
      '--reason',
      'cli',
    );
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/^2 tasks changed — batch \d+/);
    const where = JSON.stringify({
      filters: [{ field: 'category', conditions: [{ op: 'equals', value: 'finance' }] }],
    });
    const w = await cli('curate', 'assign', '--bucket', 'TRIVIAL', '--where', where, '--reason', 'by filter', '--json');
    const env = JSON.parse(w.stdout) as { ok: true; data: { batchId: number; changed: number } };
    expect(env.data.changed).toBeGreaterThan(0);
    const log = JSON.parse((await cli('curate', 'log', '--json', '--limit', '1')).stdout);
    expect(log.data.rows[0]).toMatchObject({
      id: env.data.batchId,
      reason: 'by filter',
      selection: { where: JSON.parse(where) },
    });
    const u = JSON.parse((await cli('curate', 'undo', '--json')).stdout);
    expect(u.data.changed).toBe(env.data.changed);
    expect((await cli('curate', 'redo', '--batch', String(env.data.batchId))).stdout).toMatch(/items changed/);
    expect((await cli('curate', 'assign', '--bucket', 'KEEP', '--all')).code).toBe(2);
    expect((await cli('curate', 'suggest')).stdout).toMatch(/suggested\s+.*KEEP/);
  });

  it('charts count what SQL groups: completion bins per bucket, buckets by category, language, service', async () => {
    for (const f of [{ filters: [] }, { filters: [mixed] }]) {
      const c = await ok(core, 'curation.charts', f);
      const db = openDb(file, { readOnly: true });
      try {
        const w = f.filters.length ? "WHERE suggested = 'KEEP'" : '';
        const by = (key: string, from = 'curation_grid') =>
          db
            .prepare(
              `SELECT coalesce(${key}, '(external)') AS key, coalesce(bucket, 'none') AS bucket, count(*) AS count
               FROM ${from} ${w} GROUP BY 1, 2 ORDER BY 1, 2`,
            )
            .all();
        expect(c.category).toEqual(by('category'));
        expect(c.language).toEqual(by('language'));
        expect(c.service).toEqual(by('s.value', 'curation_grid LEFT JOIN json_each(services) s'));
        const bins = db
          .prepare(
            `SELECT coalesce(bucket, 'none') AS b, min(9, CAST(mean_completion * 10 AS INTEGER)) AS bin, count(*) AS n
             FROM curation_grid ${w ? `${w} AND` : 'WHERE'} mean_completion IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`,
          )
          .all() as { b: string; bin: number; n: number }[];
        expect(c.histogram.map((h) => h.bucket)).toEqual([...new Set(bins.map((b) => b.b))]);
        for (const b of bins) expect(c.histogram.find((h) => h.bucket === b.b)!.bins[b.bin]).toBe(b.n);
        expect(c.histogram.flatMap((h) => h.bins).reduce((a, b) => a + b, 0)).toBe(bins.reduce((a, b) => a + b.n, 0));
      } finally {
        db.close();
      }
    }
  });
});
