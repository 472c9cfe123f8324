import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { openDb } from '../../src/main/core/db/sqlite';
import { ok } from '../helpers/call';
import {
  openaiRow,
  sharegptRow,
  tau2File,
  tau2Simulation,
  tauBenchRecord,
  withRaw,
  writeIn,
} from '../helpers/hostile-records';
import { createTestCore, tempDir } from '../helpers/test-core';
import { allRows, importFiles } from '../helpers/trajectory-import';

const pretty = (v: unknown) => JSON.stringify(v, null, 2);
const RANGE = /outside \[0, 1\]/;

describe('rewards and scores outside [0, 1], not finite or not numbers: refused with file:line, field, value', () => {
  let core: Core;
  const dir = tempDir('rewards-');
  beforeAll(() => {
    core = createTestCore({ seedDemo: false }).core;
  });
  afterAll(async () => {
    await core.close();
  });

  const rowsOf = (collection: string) =>
    allRows(core, [{ field: 'collection', operator: 'AND', conditions: [{ op: 'equals', value: collection }] }]);

  it('openai-jsonl and sharegpt: reward, completion and scores entries', async () => {
    // [the row's extra fields (or raw text for "@@"), the refusal expected (null: stored)]
    const cases: [Record<string, unknown>, string | null, RegExp | null][] = [
      [{ reward: 7 }, null, /^reward: bad_reward: 7 is outside \[0, 1\]/],
      [{ reward: -5 }, null, /^reward: bad_reward: -5 is outside \[0, 1\]/],
      [{ reward: '7' }, null, /^reward: bad_reward: "7" is outside \[0, 1\]/],
      [{ reward: '@@' }, '1e400', /^reward: bad_reward: .*Infinity.*a finite number/],
      [{ reward: 'NaN' }, null, /^reward: bad_reward: must be a number in \[0, 1\], .* not "NaN"/],
      [{ reward: 'Infinity' }, null, /^reward: bad_reward: must be a number in \[0, 1\], .* not "Infinity"/],
      [{ reward: '0x1' }, null, /^reward: bad_reward: must be a number in \[0, 1\], .* not "0x1"/],
      [{ reward: 'lots' }, null, /^reward: bad_reward: must be a number in \[0, 1\], .* not "lots"/],
      [{ reward: 0.5, completion: 1.5 }, null, /^completion: bad_reward: 1\.5 is outside \[0, 1\]/],
      [{ reward: 1, scores: { completion: -0.1 } }, null, /^scores\.completion: .*-0\.1 is outside/],
      [{ reward: 1, scores: { safety: 2 } }, null, /^scores\.safety: bad_reward: 2 is outside \[0, 1\]/],
      [{ reward: 1, scores: { robustness: 'high' } }, null, /^scores\.robustness: bad_reward: .*not "high"/],
      [{ reward: 0 }, null, null],
      [{ reward: 1, scores: { completion: 0.25, safety: 1 } }, null, null],
      [{ reward: ' 0.75 ' }, null, null],
      [{ reward: true }, null, null],
      [{ reward: null }, null, null],
    ];
    const line = (i: number, row: Record<string, unknown>) => withRaw(JSON.stringify(row), cases[i]![1] ?? '"@@"');
    const text = cases.map(([extra], i) => line(i, openaiRow(`t${i}`, extra))).join('\n');
    const r = await importFiles(core, { paths: [writeIn(dir, 'rewards.jsonl', `${text}\n`)] });
    const refused = cases.flatMap(([, , m], i) => (m ? [[i + 1, expect.stringMatching(m)]] : []));
    expect(r.issues.map((x) => [x.line, x.message])).toEqual(refused);
    expect(r).toMatchObject({ stored: cases.length - refused.length, refused: refused.length });
    expect((await rowsOf('rewards')).map((x) => x.source_reward)).toEqual([0, 1, 0.75, 1, null]);

    const share = [sharegptRow('a', { reward: 7 }), sharegptRow('b', { reward: 0.5 })].map((x) => JSON.stringify(x));
    const s = await importFiles(core, { paths: [writeIn(dir, 'share.jsonl', `${share.join('\n')}\n`)] });
    expect(s.issues.map((x) => [x.line, x.message])).toEqual([[1, expect.stringMatching(RANGE)]]);
  });

  it('τ-bench: reward; τ²: reward_info.reward (both defined on [0, 1])', async () => {
    const tau = pretty([tauBenchRecord(0, { reward: 7 }), tauBenchRecord(1, { reward: 0 })]);
    const t = await importFiles(core, { paths: [writeIn(dir, 'tau.json', tau)] });
    expect(t.issues.map((x) => [x.line, x.message])).toEqual([
      [2, expect.stringMatching(/^reward: bad_reward: 7 is outside \[0, 1\]/)],
    ]);
    expect((await rowsOf('tau')).map((x) => x.source_reward)).toEqual([0]);

    const sims = [tau2Simulation('1', { reward_info: { reward: -5 } }), tau2Simulation('2')];
    const t2 = await importFiles(core, { paths: [writeIn(dir, 'tau2.json', pretty(tau2File(sims)))] });
    expect(t2.issues.map((x) => x.message)).toEqual([
      expect.stringMatching(/^reward_info\.reward: bad_reward: -5 is outside \[0, 1\]/),
    ]);
    expect((await rowsOf('tau2')).map((x) => x.source_reward)).toEqual([1]);
  });

  it('the report never shows a mean beyond 1 from imported rewards', async () => {
    const rows = [7, 7, 7, 1, 0].map((reward, i) => JSON.stringify(openaiRow('same', { reward, trial: i })));
    await importFiles(core, { paths: [writeIn(dir, 'seven.jsonl', `${rows.join('\n')}\n`)] });
    const report = await ok(core, 'runs.report', { collection: 'seven' });
    expect(report.overall.mean_score).toBe(0.5);
    expect(report.tasks.map((x) => [x.trials, x.passed])).toEqual([[2, 1]]);
  });

  it('a row stored before rewards were bounded (reward 7) still opens with the reward it was stored with', async () => {
    const t = createTestCore({ seedDemo: false });
    await importFiles(t.core, { paths: [writeIn(dir, 'old.jsonl', `${JSON.stringify(openaiRow('old'))}\n`)] });
    await t.core.close();
    // What an import before this check left: the raw record and its row both say 7.
    const db = openDb(t.workspacePath);
    db.prepare(
      `UPDATE trajectory_bodies SET raw = CAST(replace(CAST(raw AS TEXT), '"reward":1', '"reward":7') AS BLOB)`,
    ).run();
    db.prepare('UPDATE trajectories SET source_reward = 7').run();
    db.close();
    const again = createTestCore({ seedDemo: false, workspacePath: t.workspacePath }).core;
    try {
      const [row] = await allRows(again);
      expect((await ok(again, 'trajectories.get', { id: row!.id })).trajectory.reward).toBe(7);
    } finally {
      await again.close();
    }
  });
});
