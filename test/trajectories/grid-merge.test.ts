import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { mergePlan } from '../../src/main/core/db/group-merge';
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
 */
const SORTS = ['source_reward', 'score', 'model', 'collection', 'created_at'] as const;
const PLAIN = { ...TRAJECTORY_TABLE, merge: undefined };
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
    await core.close();
  });

  /** The plain query (no merge) on a connection of its own. */
  function plain(q: PageQuery) {
    reader ??= openDb(file, { readOnly: true });
    const r = pagedList(readHandle(reader), PLAIN, q);
    return { ids: r.rows.map((x) => x.id), total: r.total };
  }

  async function merged(q: PageQuery) {
    expect(mergePlan(TRAJECTORY_TABLE, q), 'the query is merged').not.toBeNull();
    const r = await ok(core, 'trajectories.list', q as never);
    return { ids: r.rows.map((x) => x.id), total: r.total };
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
  async function checkAll() {
    for (const [, filters, quick] of FILTERS)
      for (const field of SORTS)
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
            expect(await merged(q(Math.max(0, offset))), `${field} ${dir} at ${offset}`).toEqual(want);
          }
          expect(all.ids.length).toBe(all.total);
        }
  }

  it('answers the plain query’s rows, order and counts for every sort, direction, filter and block', async () => {
    await checkAll();
  });

  it('still does after a re-assignment, its undo, and rows added, moved and deleted between blocks', async () => {
    const q = (offset: number): PageQuery => ({
      filters: [bucket(['KEEP'])],
      sort: [{ field: 'source_reward', dir: 'asc' }],
      offset,
      limit: 9,
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
    expect(await merged(q(18))).toEqual(plain(q(18)));
    await checkAll();
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
