import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { openDb } from '../../src/main/core/db/sqlite';
import { ok } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';
import { allRows, importFiles, TAU_BENCH, TAU2_RESULTS } from '../helpers/trajectory-import';

/**
 * Issue 18 item 3 in the trajectories grid: the recorded score beside the app's grade, whether they disagree,
 * whether the app's grade awaits a judge, and the collection's score basis — each sorted and filtered in SQL like
 * the other columns (trajectories.list, trajectories.values).
 */
describe('trajectories grid: recorded vs app score, disagrees, judge pending, score basis', () => {
  let core: Core;
  beforeAll(async () => {
    const made = createTestCore({ seedDemo: false });
    core = made.core;
    await importFiles(core, { paths: [TAU_BENCH], collection: 'tau', agent: 'gpt-4o' });
    await importFiles(core, { paths: [TAU2_RESULTS], collection: 'tau2' });
    const db = openDb(made.workspacePath);
    // As if re-graded: tau rows alternate agreeing, disagreeing and awaiting a judge.
    db.exec(`
      UPDATE trajectories SET graded = 1, app_pending = CASE WHEN id % 3 = 0 THEN 0.25 END,
        score = CASE WHEN id % 3 = 0 THEN NULL WHEN id % 3 = 1 THEN 1 - coalesce(source_reward, 0)
          ELSE source_reward END
        WHERE collection = 'tau';
      UPDATE trajectories SET passed = CASE WHEN score IS NULL THEN NULL ELSE score >= 1 END
        WHERE collection = 'tau';`);
    db.close();
    await ok(core, 'grading.setScoreBasis', { collection: 'tau2', basis: 'app', reason: 'test: the app basis' });
  }, 300_000);
  afterAll(async () => core?.close());

  it('rows carry disagrees, judge_pending and their collection basis', async () => {
    const rows = await allRows(core);
    const tau = rows.filter((r) => r.collection === 'tau');
    expect(tau.length).toBeGreaterThan(2);
    for (const r of tau) {
      expect(r.judge_pending, `row ${r.id}`).toBe(r.id % 3 === 0);
      expect(r.disagrees, `row ${r.id}`).toBe(r.id % 3 === 0 ? null : r.id % 3 === 1);
      expect(r.score_basis).toBe('recorded');
    }
    expect(rows.filter((r) => r.collection === 'tau2').every((r) => r.score_basis === 'app')).toBe(true);
  });

  it('filters and sorts on them in SQL; the set filter counts their values', async () => {
    const all = await allRows(core);
    const yes = (field: 'disagrees' | 'judge_pending' | 'score_basis', v: number | string) => [
      { field, conditions: [{ op: 'in' as const, values: [v] }] },
    ];
    const disagreeing = await allRows(core, yes('disagrees', 1));
    expect(disagreeing.map((r) => r.id)).toEqual(all.filter((r) => r.disagrees).map((r) => r.id));
    expect(disagreeing.length).toBeGreaterThan(0);
    const pending = await allRows(core, yes('judge_pending', 1));
    expect(pending.map((r) => r.id)).toEqual(all.filter((r) => r.judge_pending).map((r) => r.id));
    const app = await allRows(core, yes('score_basis', 'app'));
    expect(app.map((r) => r.id)).toEqual(all.filter((r) => r.collection === 'tau2').map((r) => r.id));

    const values = await ok(core, 'trajectories.values', { field: 'disagrees' });
    const counted = Object.fromEntries(values.values.map((v) => [String(v.value), v.count]));
    expect(counted['1']).toBe(disagreeing.length);

    const sorted = await ok(core, 'trajectories.list', {
      offset: 0,
      limit: 5000,
      sort: [{ field: 'judge_pending', dir: 'desc' }],
    });
    expect(sorted.rows[0]!.judge_pending).toBe(true);
    expect(sorted.rows.at(-1)!.judge_pending).toBe(false);
  });
});
