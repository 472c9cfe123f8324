import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { openDb, readHandle, type Db } from '../../src/main/core/db/sqlite';
import { exportSft, previewSft, type SftRecord } from '../../src/main/core/export/sft';
import { compilePrefixPattern } from '../../src/main/core/export/sft/preselect';
import { type Preselected, tablePreselected } from '../../src/main/core/export/sft/preselected';
import { RedactionTally, workspaceSftRecords } from '../../src/main/core/export/workspace/sft-records';
import { SftOptions, type SftOptionsInput } from '../../src/shared/contract/entities/export';
import { SftSelection } from '../../src/shared/contract/export.contract';
import { FULL_DATA } from '../helpers/shared-data';
import { createTestCore, tempDir } from '../helpers/test-core';
import { importFiles, TAU2_RESULTS, TAU_BENCH } from '../helpers/trajectory-import';

/**
 * Issue 17: the workspace decides §6.5 steps 1–3 in SQL (export/workspace/sft-selection.ts, duplicate-rule.ts)
 * while other sources keep the LightTable. Both must select the same: here both run on one workspace — real τ-bench
 * and τ²-bench records (the full corpora with FULL_DATA, else the shipped subset), duplicates within an import,
 * a replacement chain, every bucket, overrides, invalid rows, a task in another pool and one in a pool without a
 * rule — and must give the same verdicts, texts and export files, byte for byte.
 */
type Row = { task_id: unknown; trial?: number; traj: { role: string; content: string | null }[] };

const again = (r: Row, note: string): Row => ({
  ...r,
  traj: [...r.traj, { role: 'user', content: `###STOP### ${note}` }],
});

async function buildWorkspace(core: Core, dir: string, workspacePath: string): Promise<Db> {
  const tau = JSON.parse(fs.readFileSync(TAU_BENCH, 'utf8')) as Row[];
  const write = (name: string, rows: Row[]) => {
    const file = path.join(dir, name, 'gpt-4o-airline.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(rows));
    return file;
  };
  // One import stores every fifth record twice (another text, same task and trial): the later copy wins.
  const doubled = [...tau, ...tau.filter((_, i) => i % 5 === 0).map((r) => again(r, '(stored twice)'))];
  await importFiles(core, { paths: [write('a', doubled)], collection: 'tau-a', agent: 'gpt-4o' });
  // A replacement chain: tau-b re-executes a third of the records' tasks, tau-c some of tau-b's.
  const third = tau.filter((_, i) => i % 3 === 0).map((r) => again(r, '(re-executed)'));
  await importFiles(core, { paths: [write('b', third)], collection: 'tau-b', supersedes: ['tau-a'] });
  const few = third.filter((_, i) => i % 2 === 0).map((r) => again(r, '(again)'));
  await importFiles(core, { paths: [write('c', few)], collection: 'tau-c', supersedes: ['tau-b'] });
  await importFiles(core, { paths: [TAU2_RESULTS], collection: 'tau2' });
  const db = openDb(workspacePath);
  db.exec(`
    UPDATE curation_tasks SET bucket = CASE rowid % 4 WHEN 0 THEN 'KEEP' WHEN 1 THEN 'TRIVIAL'
      WHEN 2 THEN 'UNSOLVABLE' ELSE NULL END;
    UPDATE curation_tasks SET pool = 'multi_service_safety' WHERE rowid % 5 = 1;
    UPDATE curation_tasks SET pool = 'legacy' WHERE rowid % 7 = 2;
    -- On the shipped subset's few tasks too: a KEEP task in a pool without a rule, a KEEP task in mixed.
    UPDATE curation_tasks SET pool = 'legacy', bucket = 'KEEP' WHERE rowid = (SELECT max(rowid) FROM curation_tasks);
    UPDATE curation_tasks SET pool = 'mixed', bucket = 'KEEP' WHERE rowid = (SELECT min(rowid) FROM curation_tasks);
    UPDATE trajectories SET include_override = 'include' WHERE id % 11 = 0;
    UPDATE trajectories SET include_override = 'exclude' WHERE id % 17 = 0;
    UPDATE trajectories SET valid = 0 WHERE id % 13 = 0;
    -- Issue 18 item 3: tau2 counts with the app's grade (as if re-graded): some rows disagree with their record,
    -- some await a judge; in tau-a (recorded basis) a few rows recorded nothing and their app grade awaits a judge.
    UPDATE collections SET score_basis = 'app' WHERE name = 'tau2';
    UPDATE trajectories SET graded = 1, app_pending = CASE WHEN id % 3 = 0 THEN 0.25 END,
        score = CASE WHEN id % 3 = 0 THEN NULL WHEN id % 3 = 1 THEN 1 - coalesce(source_reward, 0)
          ELSE source_reward END,
        completion = CASE WHEN id % 3 = 0 THEN NULL ELSE 0.5 END
      WHERE collection = 'tau2';
    UPDATE trajectories SET passed = CASE WHEN score IS NULL THEN NULL ELSE score >= 1 END WHERE collection = 'tau2';
    -- Some pending rows get past the buckets (the shipped subset has few tasks): their verdict is the judge's.
    UPDATE trajectories SET include_override = 'include', valid = 1 WHERE collection = 'tau2' AND id % 6 = 0;
    UPDATE trajectories SET source_reward = NULL, source_success = NULL, source_completion = NULL, graded = 1,
        score = NULL, completion = NULL, passed = NULL, app_pending = 0.5
      WHERE collection = 'tau-a' AND id % 19 = 0;
    -- And the last record of the KEEP task in mixed (kept unless pending): it awaits a judge, with no record.
    UPDATE trajectories SET source_reward = NULL, source_success = NULL, source_completion = NULL, graded = 1,
        score = NULL, completion = NULL, passed = NULL, app_pending = 0.5, valid = 1, include_override = NULL
      WHERE id = (SELECT max(t.id) FROM trajectories t WHERE t.task_id =
        (SELECT c.task_id FROM curation_tasks c WHERE c.rowid = (SELECT min(rowid) FROM curation_tasks)));`);
  return db;
}

/** Every record of a pass with its metadata verdict as the engine reads it. */
const scanned = (p: Preselected) =>
  [...p.scan(false)].map((s) => ({ ...s.light(), hash: s.hash, reason: s.reason, detail: s.reason && s.detail() }));

const SELECTIONS = [
  { allUncurated: true },
  {},
  { admittedBuckets: ['KEEP'], collections: ['tau-a', 'tau-b'] },
  // The replacing collection is not fed: tau-a's records stay.
  { allUncurated: true, collections: ['tau-a', 'tau-c'] },
  { allUncurated: true, pool: 'mixed' },
] as const;
const OPTIONS: SftOptionsInput[] = [{}, { pools: { mixed: { minReward: null, converter: true } } }];

describe('the SQL selection and the LightTable select the same', () => {
  let core: Core;
  let db: Db;
  const dir = tempDir('sql-selection-');
  beforeAll(async () => {
    const made = createTestCore({ seedDemo: false });
    core = made.core;
    db = await buildWorkspace(core, dir, made.workspacePath);
  }, 300_000);
  afterAll(async () => {
    db?.close();
    await core?.close();
  });

  /** The workspace's records twice: deciding in SQL (as the export does), and as a plain iterable (the JS path). */
  const sources = (selection: object) => {
    const sql = workspaceSftRecords(readHandle(db), SftSelection.parse(selection), new RedactionTally());
    const js: Iterable<SftRecord> = { [Symbol.iterator]: () => sql[Symbol.iterator]() };
    return { sql, js };
  };

  it(`same records, order, verdicts and texts for every selection (${FULL_DATA ? 'full corpora' : 'subset'})`, () => {
    const counts: Record<string, number> = {};
    for (const selection of SELECTIONS)
      for (const options of OPTIONS) {
        const o = SftOptions.parse({ ...options, admittedBuckets: admitted(selection) });
        const pattern = compilePrefixPattern(o.trivialPrefixPattern);
        const { sql, js } = sources(selection);
        const bySql = scanned(sql.preselect(o, pattern));
        expect(bySql).toEqual(scanned(tablePreselected(js, o, pattern)));
        for (const s of bySql) counts[s.reason ?? 'kept'] = (counts[s.reason ?? 'kept'] ?? 0) + 1;
      }
    // Every rule met something: the comparison covers each of them.
    for (const reason of ['superseded', 'duplicate', 'excluded_by_curation', 'unsolvable', 'unbucketed'])
      expect(counts[reason], `${reason} in ${JSON.stringify(counts)}`).toBeGreaterThan(0);
    for (const reason of ['invalid_rollout', 'unknown_pool', 'below_threshold', 'judge_pending', 'kept'])
      expect(counts[reason], `${reason} in ${JSON.stringify(counts)}`).toBeGreaterThan(0);
  });

  it("reads the score of record per the collection's basis; a pending judge is judge_pending, not a failure", () => {
    const o = SftOptions.parse({ admittedBuckets: admitted({ allUncurated: true }) });
    const rows = scanned(
      sources({ allUncurated: true }).sql.preselect(o, compilePrefixPattern(o.trivialPrefixPattern)),
    );
    const stored = new Map(
      (
        db.prepare('SELECT id, collection, score, source_reward, app_pending, disagrees FROM trajectories').all() as {
          id: number;
          collection: string;
          score: number | null;
          source_reward: number | null;
          app_pending: number | null;
          disagrees: number | null;
        }[]
      ).map((r) => [String(r.id), r]),
    );
    let disagreeing = 0;
    for (const r of rows) {
      const t = stored.get(r.id)!;
      // tau2 is on the app basis: its app score, never its record; the others keep their record.
      expect(r.reward, `${r.id} (${t.collection})`).toBe(t.collection === 'tau2' ? t.score : t.source_reward);
      if (t.disagrees === 1) disagreeing++;
      if (r.reason === 'judge_pending') expect(t.app_pending).toBeGreaterThan(0);
      if (t.app_pending && !['superseded', 'duplicate'].includes(r.reason ?? ''))
        expect([
          'judge_pending',
          'excluded_by_curation',
          'unsolvable',
          'unbucketed',
          'invalid_rollout',
          'unknown_pool',
        ]).toContain(r.reason);
    }
    expect(disagreeing).toBeGreaterThan(0);
    expect(rows.find((r) => r.reason === 'judge_pending')!.detail).toMatch(/awaits an LLM judge/);
  });

  it("names each collection's basis and counts disagreements among exported records in the manifest", () => {
    const { sql } = sources({ allUncurated: true });
    const options = { pools: { mixed: { minReward: null, converter: true } }, requireToolSchemas: false };
    const o = { ...options, admittedBuckets: admitted({ allUncurated: true }) };
    exportSft({ records: sql, dialect: 'trl', outDir: path.join(dir, 'bases'), options: o });
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'bases', 'manifest.json'), 'utf8'));
    const tau2 = manifest.scoreBasis.find((e: { collection: string }) => e.collection === 'tau2');
    const disagreeing = manifest.records.filter(
      (r: { lineage: { collection: string; disagrees: boolean | null } }) =>
        r.lineage.collection === 'tau2' && r.lineage.disagrees,
    ).length;
    expect(tau2).toEqual({
      collection: 'tau2',
      basis: 'app',
      exported: manifest.records.filter((r: { lineage: { collection: string } }) => r.lineage.collection === 'tau2')
        .length,
      disagreements: disagreeing,
    });
    expect(tau2.disagreements).toBeGreaterThan(0);
    // Imports keep their record: nothing to disagree with on the recorded basis (their app grade is unknown here).
    const others = manifest.scoreBasis.filter((e: { collection: string }) => e.collection !== 'tau2');
    expect(others.length).toBeGreaterThan(0);
    for (const e of others) expect(e).toMatchObject({ basis: 'recorded', disagreements: 0 });
  });

  it('writes the same export files, byte for byte, and the same previews', () => {
    for (const [dialect, selection, options] of [
      ['trl', { allUncurated: true }, { pools: { mixed: { minReward: null, converter: true } } }],
      ['llamafactory', {}, {}],
    ] as const) {
      const { sql, js } = sources(selection);
      const o = { ...options, admittedBuckets: admitted(selection), requireToolSchemas: false };
      const now = () => new Date('2026-03-01T09:00:00.000Z');
      const out = (name: string) => path.join(dir, `${dialect}-${name}`);
      const a = exportSft({ records: sql, dialect, outDir: out('sql'), options: o, now });
      const b = exportSft({ records: js, dialect, outDir: out('js'), options: o, now });
      expect(a.report.exported).toBeGreaterThan(0);
      expect(fs.readdirSync(out('sql')).sort()).toEqual(fs.readdirSync(out('js')).sort());
      for (const f of fs.readdirSync(out('js')))
        expect(fs.readFileSync(path.join(out('sql'), f)), f).toEqual(fs.readFileSync(path.join(out('js'), f)));
      expect(a.manifestSha256).toBe(b.manifestSha256);
      for (const sampleBodies of [undefined, 3])
        expect(previewSft({ records: sql, dialect, options: o, sampleBodies })).toEqual(
          previewSft({ records: js, dialect, options: o, sampleBodies }),
        );
    }
  });
});

const admitted = (s: object) => {
  const p = SftSelection.parse(s);
  return p.allUncurated ? [...p.admittedBuckets, 'UNBUCKETED' as const] : p.admittedBuckets;
};
