import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { openDb } from '../../src/main/core/db/sqlite';
import { fail, ok } from '../helpers/call';
import { curationWorkspace } from '../helpers/curation-fill';
import { createTestCore, tempDir } from '../helpers/test-core';
import { runCliCaptured } from '../helpers/transports';

/** How many tasks have a bucket, and how many trajectories an override: a refused bulk write changes neither. */
function written(file: string): { buckets: number; overrides: number } {
  const db = openDb(file, { readOnly: true });
  try {
    const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return {
      buckets: n('SELECT count(*) AS n FROM curation_tasks WHERE bucket IS NOT NULL'),
      overrides: n('SELECT count(*) AS n FROM trajectories WHERE include_override IS NOT NULL'),
    };
  } finally {
    db.close();
  }
}

const on = (field: string, op: string, value: string) => ({ field, operator: 'AND', conditions: [{ op, value }] });

/**
 * SQLite's LIKE reads its pattern as a C string: `%\0anything%` is `%`, which matches every row. So one NUL in a
 * filter value turned "tasks whose name contains X" into "every task" — in a bulk assign, the whole workspace.
 */
describe('hostile curation filters are refused, never read as "every task"', () => {
  let core: Core;
  let file: string;

  beforeAll(async () => {
    file = path.join(tempDir(), 'hostile.coworkenv.db');
    await curationWorkspace(file, { tasks: 20, perTask: 2 });
    core = createTestCore({ workspacePath: file }).core;
  }, 60_000);
  afterAll(() => core?.close());

  it.each(['contains', 'startsWith', 'endsWith', 'notContains'])(
    'a NUL in a %s value: refused, naming the field',
    async (op) => {
      const e = await fail(core, 'curation.assign', {
        bucket: 'KEEP',
        select: { where: { filters: [on('name', op, 'no such task\u0000')] } },
        reason: 'hostile',
      });
      expect(e.code).toBe('INVALID_INPUT');
      expect(e.message).toMatch(/filter on name/);
      expect(e.message).toMatch(/control character U\+0000/);
      expect(written(file)).toEqual({ buckets: 0, overrides: 0 });
    },
  );

  it('the grid and its other queries refuse it too (one rule in the contract), and a NUL in quick search', async () => {
    const bad = { filters: [on('task_id', 'contains', '\u0000')] };
    for (const [name, input] of [
      ['curation.tasks', bad],
      ['curation.ids', bad],
      ['curation.values', { ...bad, field: 'bucket' }],
      ['curation.charts', bad],
      ['trajectories.list', bad],
      ['curation.tasks', { filters: [], quick: 'x\u0000' }],
      [
        'curation.tasks',
        { filters: [{ field: 'name', conditions: [{ op: 'inRange', value: 'a', valueTo: 'b\u0007' }] }] },
      ],
      [
        'curation.tasks',
        { filters: [{ field: 'category', conditions: [{ op: 'in', values: ['finance', 'x\u001b'] }] }] },
      ],
    ] as const) {
      const e = await fail(core, name, input);
      expect(e.code, name).toBe('INVALID_INPUT');
      expect(e.message, name).toMatch(/control character/);
    }
  });

  it('an override by a trajectories filter with a NUL: refused, nothing written', async () => {
    const e = await fail(core, 'curation.override', {
      override: 'exclude',
      select: { where: { filters: [on('task_id', 'contains', '\u0000')] } },
      reason: 'hostile',
    });
    expect(e.message).toMatch(/filter on task_id/);
    expect(written(file)).toEqual({ buckets: 0, overrides: 0 });
  });

  it('an empty filter is not "all": a bulk write over every row must say {all: true}', async () => {
    for (const where of [{ filters: [] }, { filters: [], quick: '   ' }, {}]) {
      for (const [name, extra] of [
        ['curation.assign', { bucket: 'KEEP' }],
        ['curation.applySuggestions', {}],
        ['curation.setPool', { pool: 'other' }],
        ['curation.override', { override: 'exclude' }],
      ] as const) {
        const e = await fail(core, name, { ...extra, select: { where }, reason: 'empty filter' });
        expect(e.code, name).toBe('INVALID_INPUT');
        expect(e.message, name).toMatch(/filters nothing/);
      }
    }
    expect(written(file)).toEqual({ buckets: 0, overrides: 0 });
    // Saying so is still allowed.
    expect((await ok(core, 'curation.assign', { bucket: 'KEEP', select: { all: true }, reason: 'all' })).changed).toBe(
      20,
    );
    await ok(core, 'curation.undo', {});
  });

  it('the CLI: `curate assign --where` with a NUL or an empty filter exits non-zero and changes nothing', async () => {
    const cli = (...argv: string[]) => runCliCaptured(['--workspace', file, ...argv]);
    const nul = JSON.stringify({ filters: [on('name', 'contains', 'zzz\u0000')] });
    const r = await cli('curate', 'assign', '--bucket', 'TRIVIAL', '--where', nul, '--reason', 'hostile');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/filter on name: .*control character U\+0000/);
    for (const empty of ['{"filters":[]}', '[]', '{}']) {
      const e = await cli('curate', 'assign', '--bucket', 'TRIVIAL', '--where', empty, '--reason', 'empty');
      expect(e.code, empty).not.toBe(0);
      expect(e.stderr, empty).toMatch(/--all/);
    }
    expect(written(file)).toEqual({ buckets: 0, overrides: 0 });
  });
});
