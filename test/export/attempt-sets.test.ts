import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { previewSft } from '../../src/main/core/export/sft';
import { ok } from '../helpers/call';
import { messagesRow, writeJsonl } from '../helpers/tau-records';
import { createTestCore, tempDir } from '../helpers/test-core';
import { FULL_DATA } from '../helpers/shared-data';
import { importFiles, TAU2_RESULTS, TAU_BENCH, hasTrajCorpus } from '../helpers/trajectory-import';
import { agentRun, rec, trajectory } from './build';

const run = (id: string) => trajectory(id, agentRun(id, 3, 3));
const reasons = (p: ReturnType<typeof previewSft>) =>
  Object.fromEntries(Object.entries(p.report.rejections).map(([k, v]) => [k, v.count]));

/** Every trajectory of the workspace through the SFT selection, nothing curated, no threshold. */
async function preview(core: Core) {
  const { preview: p } = await ok(core, 'export.sftPreview', {
    dialect: 'openai',
    selection: { allUncurated: true },
    options: { pools: { mixed: { minReward: null, converter: false } } },
    maxBodies: null,
  });
  return p;
}

/**
 * Issues 17 and 18, formats.md §6.4: duplicates are the same (task, trial) within one attempt set
 * (one run of one agent and model in one collection; trajectories/attempt-set.ts), the later stored
 * winning — never across models, runs or collections.
 */
describe('dedup by (task, trial) stays inside an attempt set', () => {
  it('in the export core: records of other attempt sets (or collections) are other attempts', () => {
    const p = previewSft({
      dialect: 'trl',
      records: [
        rec(run('base'), { taskId: 'X', trial: 0, collectionId: 'c', attemptSet: 'base-model' }),
        rec(run('ft'), { taskId: 'X', trial: 0, collectionId: 'c', attemptSet: 'fine-tuned' }),
        rec(run('ft-again'), { taskId: 'X', trial: 0, collectionId: 'c', attemptSet: 'fine-tuned' }),
        rec(run('other-collection'), { taskId: 'X', trial: 0, collectionId: 'd' }),
      ],
    });
    expect(reasons(p)).toEqual({ duplicate: 1 });
    expect(p.examples.duplicate!.map((e) => e.recordId)).toEqual(['ft']);
    expect(p.report.exported).toBe(3);
  });

  describe('from the workspace', () => {
    let core: Core;
    const dir = tempDir('attempt-sets-');
    beforeAll(() => {
      core = createTestCore({ seedDemo: false }).core;
    });
    afterAll(() => core?.close());

    it('a base and a fine-tuned model, same tasks and trials, one file and collection: both kept', async () => {
      const rows = ['base', 'base-ft'].flatMap((model) =>
        [0, 1].flatMap((trial) => ['t1', 't2'].map((task) => messagesRow({ task, trial, reward: 1, model }))),
      );
      await importFiles(core, { paths: [writeJsonl(dir, 'models.jsonl', rows)], collection: 'models' });
      const p = await preview(core);
      expect(reasons(p).duplicate).toBeUndefined();
      expect(p.report.exported).toBe(8);
    });

    it('two runs (imports) of the same tasks into one collection: the count doubles', async () => {
      const rows = (n: number) => ['t1', 't2'].map((task) => messagesRow({ task, trial: 0, reward: 1, text: `r${n}` }));
      await importFiles(core, { paths: [writeJsonl(dir, 'run1.jsonl', rows(1))], collection: 'runs' });
      await importFiles(core, { paths: [writeJsonl(dir, 'run2.jsonl', rows(2))], collection: 'runs' });
      const p = await preview(core);
      expect(reasons(p).duplicate).toBeUndefined();
      expect(p.report.exported).toBe(12);
    });

    it('within one run, agent and collection the later record of a (task, trial) wins', async () => {
      const file = writeJsonl(dir, 'twice.jsonl', [
        messagesRow({ task: 't9', trial: 0, reward: 1, text: 'first' }),
        messagesRow({ task: 't9', trial: 0, reward: 1, text: 'second' }),
      ]);
      await importFiles(core, { paths: [file], collection: 'twice' });
      const p = await preview(core);
      expect(reasons(p)).toEqual({ duplicate: 1 });
      expect(p.examples.duplicate![0]!.detail).toMatch(/^record \d+ \(stored later\) has the same task and trial/);
      expect(p.report.exported).toBe(13);
    });
  });
});

describe.skipIf(!(hasTrajCorpus && FULL_DATA))(
  `dedup on the τ corpus files${FULL_DATA ? '' : ' (skipped: counts of the full corpora, not the shipped subset)'}`,
  () => {
    let core: Core;
    const dir = tempDir('attempt-sets-corpus-');
    beforeAll(() => {
      core = createTestCore({ seedDemo: false }).core;
    });
    afterAll(() => core?.close());

    it('two τ² runs of the same tasks, same file name, imported one after the other: 40 attempts', async () => {
      const doc = JSON.parse(fs.readFileSync(TAU2_RESULTS, 'utf8')) as {
        info: { seed: number };
        simulations: { id: string }[];
      };
      const again = { ...doc, info: { ...doc.info, seed: 301 } };
      again.simulations = doc.simulations.map((s) => ({ ...s, id: `${s.id}-rerun` }));
      const copy = path.join(dir, 'rerun', path.basename(TAU2_RESULTS));
      fs.mkdirSync(path.dirname(copy));
      fs.writeFileSync(copy, JSON.stringify(again));
      const first = await importFiles(core, { paths: [TAU2_RESULTS] });
      const second = await importFiles(core, { paths: [copy] });
      // The same file name: the same default collection, as two reference runs of τ² are written.
      expect([first.files[0]!.collection, first.stored, second.stored]).toEqual([second.files[0]!.collection, 20, 20]);
      const p = await preview(core);
      expect(reasons(p).duplicate).toBeUndefined();
      expect(p.report.steps[0]).toMatchObject({ in: 40, out: 40 });
    });

    it('τ-bench of a base and a fine-tuned model in one collection: 200 + 200 attempts', async () => {
      const src = JSON.parse(fs.readFileSync(TAU_BENCH, 'utf8')) as { traj: { content: string | null }[] }[];
      const tuned = src.map((r) => ({ ...r, traj: [...r.traj, { role: 'user', content: '###STOP### (tuned)' }] }));
      const ft = path.join(dir, 'gpt-4o-ft-airline.json');
      fs.writeFileSync(ft, JSON.stringify(tuned));
      await importFiles(core, { paths: [TAU_BENCH], collection: 'tau', agent: 'gpt-4o' });
      await importFiles(core, { paths: [ft], collection: 'tau', agent: 'gpt-4o-ft' });
      const p = await preview(core);
      expect(reasons(p).duplicate).toBeUndefined();
      expect(p.report.steps[0]).toMatchObject({ in: 440, out: 440 });
    });
  },
);
