import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { mergedIds, mergePlan } from '../../src/main/core/db/group-merge';
import { pagedList } from '../../src/main/core/db/paged-list';
import type { PageQuery } from '../../src/main/core/db/sql-filter';
import { openDb, readHandle } from '../../src/main/core/db/sqlite';
import { TRAJECTORY_TABLE } from '../../src/main/core/trajectories/trajectories.repo';
import { ok } from '../helpers/call';
import { curationWorkspace } from '../helpers/curation-fill';
import { createTestCore, tempDir } from '../helpers/test-core';

/**
 * The trajectories grid under a bucket filter merges each task's rows (group-merge.ts, migration 0028): the
 * rows, their order and the counts must be the plain query's on the same data — rewards, models and
 * collections tie everywhere and some are NULL, other filters combine with the bucket, blocks follow one another,
 * jump ahead and go back, and the data changes between blocks (re-assignment, undo, new and deleted rows).
 * Sorts with an index of their own first walk the plain order for a budget of rows: each plan is checked alone
 * (budget 0: merge only; a budget over the table: walk only) and mixed (a budget of a few blocks).
 */
const SORTS = ['source_reward', 'score', 'model', 'collection', 'created_at'] as const;
const WALKS = ['source_reward', 'score', 'created_at'];
const PLAIN = { ...TRAJECTORY_TABLE, merge: undefined };
const budget = (walkBudget: number) => ({ ...TRAJECTORY_TABLE, merge: { ...TRAJECTORY_TABLE.merge!, walkBudget } });
/** Which plan answers: merge only, walk only, a walk of 30 rows then the merge, the app's own (through core). */
const PLANS = { merge: budget(0), walk: budget(1e9), mixed: budget(30), app: null } as const;
type PlanName = keyof typeof PLANS;
type Filters = PageQuery['filters'];
const bucket = (values: string[], op: 'in' | 'blank' = 'in'): Filters[number] => ({
  field: 'bucket',
  operator: 'AND',
  conditions: op === 'in' ? [{ op, values }] : [{ op }],
});

describe('trajectories grid: bucket filter merged task by task', () => {
  let file: string;
  let core: Core;
  let reader: ReturnType<typeof openDb> | undefined;

  beforeAll(async () => {
    file = path.join(tempDir('grid-merge-'), 'ws.coworkenv.db');
    await curationWorkspace(file, { tasks: 30, perTask: 7 });
    const db = openDb(file);
    db.exec(`INSERT OR IGNORE INTO collections (name, supersedes, description, created_at, updated_at)
      VALUES ('c2', '[]', '', '2026-01-01', '2026-01-01')`);
    db.exec(`UPDATE trajectories SET source_reward = CASE WHEN id % 11 = 0 THEN NULL
        WHEN (CAST(substr(task_id, -1) AS INTEGER) + id) % 3 = 0 THEN 1 ELSE 0 END,
      model = CASE WHEN id % 13 = 0 THEN '' ELSE 'm' || (id % 2) END,
      collection = CASE WHEN id % 4 = 0 THEN 'c2' ELSE (SELECT min(name) FROM collections) END,
      created_at = CASE WHEN id % 5 = 0 THEN '2026-01-02' ELSE '2026-01-01' END,
      score = CASE WHEN id % 7 = 0 THEN NULL ELSE round(source_completion, 1) END`);
    db.close();
    core = createTestCore({ workspacePath: file }).core;
    await ok(core, 'curation.applySuggestions', { select: { all: true }, reason: 'test' });
    // Some tasks without a bucket (blank), so every bucket filter has rows.
    const few = ['task-000001', 'task-000002', 'task-000003'];
    await ok(core, 'curation.assign', { bucket: null, select: { tasks: few }, reason: 'test' });
  });
  afterAll(async () => {
    reader?.close();
    planReader?.close();
    await core.close();
  });

  /** The plain query (no merge) on a connection of its own. */
  function plain(q: PageQuery) {
    reader ??= openDb(file, { readOnly: true });
    const r = pagedList(readHandle(reader), PLAIN, q);
    return { ids: r.rows.map((x) => x.id), total: r.total };
  }

  let planReader: ReturnType<typeof openDb> | undefined;
  /** Plans that answered per table, to check each branch was taken. */
  const used = { merge: new Set<string>(), walk: new Set<string>(), mixed: new Set<string>() };

  async function merged(q: PageQuery, plan: PlanName = 'app') {
    expect(mergePlan(TRAJECTORY_TABLE, q), 'the query is merged').not.toBeNull();
    const table = PLANS[plan];
    if (!table) {
      const r = await ok(core, 'trajectories.list', q as never);
      return { ids: r.rows.map((x) => x.id), total: r.total };
    }
    // One plan alone, on a connection of its own (its kept merges are its own too); the count is the plain one.
    planReader ??= openDb(file, { readOnly: true });
    const { total } = plain(q);
    if (q.offset >= total) return plain(q);
    const got = mergedIds(readHandle(planReader), table, q, mergePlan(table, q)!, total);
    expect(got, 'a block near the top is never left to the plain query').not.toBeNull();
    used[plan as keyof typeof used].add(got!.via);
    return { ids: got!.ids, total };
  }

  const FILTERS: [string, Filters, string?][] = [
    ['UNSOLVABLE', [bucket(['UNSOLVABLE'])]],
    ['KEEP', [bucket(['KEEP'])]],
    ['TRIVIAL or KEEP', [bucket(['TRIVIAL', 'KEEP'])]],
    ['no bucket', [bucket([], 'blank')]],
    [
      'KEEP, model m1',
      [bucket(['KEEP']), { field: 'model', operator: 'AND', conditions: [{ op: 'in', values: ['m1'] }] }],
    ],
    ['UNSOLVABLE, quick search', [bucket(['UNSOLVABLE'])], '00001'],
    [
      'TRIVIAL, reward ≥ 0',
      [
        bucket(['TRIVIAL']),
        { field: 'source_reward', operator: 'AND', conditions: [{ op: 'greaterThanOrEqual', value: 0 }] },
      ],
    ],
  ];

  /** Every block of every sort, both directions: blocks in turn, a jump ahead, then back to an earlier one. */
  async function checkAll(plan: PlanName = 'app') {
    for (const [, filters, quick] of FILTERS)
      for (const field of plan === 'app' || plan === 'merge' ? SORTS : WALKS)
        for (const dir of ['asc', 'desc'] as const) {
          const q = (offset: number, limit = 9): PageQuery => ({
            filters,
            ...(quick ? { quick } : {}),
            sort: [{ field, dir }],
            offset,
            limit,
          });
          const all = plain(q(0, 10_000));
          for (const offset of [0, 9, 18, 45, 27, all.total - 3, all.total + 5]) {
            const want = plain(q(Math.max(0, offset)));
            expect(await merged(q(Math.max(0, offset)), plan), `${plan}: ${field} ${dir} at ${offset}`).toEqual(want);
          }
          expect(all.ids.length).toBe(all.total);
        }
  }

  it('answers the plain query’s rows, order and counts for every sort, direction, filter and block', async () => {
    await checkAll();
  });

  it('answers them whichever plan is chosen: merge, walk of the plain order, or a walk then the merge', async () => {
    for (const plan of ['merge', 'walk', 'mixed'] as const) await checkAll(plan);
    expect([...used.merge]).toEqual(['merge']);
    expect([...used.walk]).toEqual(['walk']);
    expect([...used.mixed].sort()).toEqual(['merge', 'walk']);
  });

  it('still does after a re-assignment, its undo, and rows added, moved and deleted between blocks', async () => {
    const q = (offset: number, limit = 9): PageQuery => ({
      filters: [bucket(['KEEP'])],
      sort: [{ field: 'source_reward', dir: 'asc' }],
      offset,
      limit,
    });
    expect(await merged(q(0))).toEqual(plain(q(0)));
    const unsolvable = (
      (await ok(core, 'curation.tasks', { offset: 0, limit: 1000, sort: [], filters: [] } as never)) as {
        rows: { task_id: string; bucket: string | null }[];
      }
    ).rows
      .filter((r) => r.bucket === 'UNSOLVABLE')
      .map((r) => r.task_id);
    await ok(core, 'curation.assign', { bucket: 'KEEP', select: { tasks: unsolvable }, reason: 'test' });
    expect(await merged(q(9))).toEqual(plain(q(9)));
    await ok(core, 'curation.undo', {});
    // The merge keeps each task's first row per query: a change must not reopen the query on stale ones.
    const trivial: PageQuery = { ...q(0, 1000), filters: [bucket(['TRIVIAL'])] };
    expect(await merged(trivial, 'merge')).toEqual(plain(trivial));
    await ok(core, 'curation.assign', { bucket: 'TRIVIAL', select: { tasks: unsolvable.slice(0, 3) }, reason: 'test' });
    expect(await merged(trivial, 'merge')).toEqual(plain(trivial));
    await ok(core, 'curation.undo', {});
    expect(await merged(trivial, 'merge')).toEqual(plain(trivial));
    expect(await merged(q(18))).toEqual(plain(q(18)));
    await checkAll();
    await checkAll('mixed');
    // Another connection adds rows to a task, moves one to another task and deletes some.
    const db = openDb(file);
    const cols = (db.prepare('PRAGMA table_info(trajectories)').all() as { name: string }[])
      .map((c) => c.name)
      .filter((c) => c !== 'id');
    const copy: Record<string, string> = { trace_id: "trace_id || '-new'", trial: 'trial + 100', source_reward: '0' };
    db.exec(`INSERT INTO trajectories (${cols.join(', ')})
      SELECT ${cols.map((c) => copy[c] ?? c).join(', ')} FROM trajectories WHERE id % 6 = 0`);
    db.exec("UPDATE trajectories SET task_id = 'task-000004' WHERE id % 17 = 0");
    db.exec('DELETE FROM trajectories WHERE id % 19 = 0');
    db.close();
    expect(await merged(q(27))).toEqual(plain(q(27)));
    await checkAll();
    await checkAll('merge');
    // The per-task row counts (migration 0028's triggers) equal the rows.
    const check = openDb(file, { readOnly: true });
    const off = check
      .prepare(
        `SELECT count(*) AS n FROM (SELECT task_id, count(*) AS n FROM trajectories GROUP BY task_id) t
         FULL JOIN trajectory_task_rows r USING (task_id) WHERE coalesce(t.n, 0) IS NOT coalesce(r.n, 0)`,
      )
      .get() as { n: number };
    check.close();
    expect(off.n).toBe(0);
  });
});
