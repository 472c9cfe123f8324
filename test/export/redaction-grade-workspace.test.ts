import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../../src/shared/contract/entities/trajectory';
import { RlSelection, SftSelection } from '../../src/shared/contract/export.contract';
import { openDb, readHandle, writeHandle } from '../../src/main/core/db/sqlite';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { exportSft } from '../../src/main/core/export/sft';
import { rlInputs } from '../../src/main/core/export/workspace/rl-inputs';
import { RedactionTally, workspaceSftRecords } from '../../src/main/core/export/workspace/sft-records';
import { grade } from '../../src/main/core/grading/grade';
import { storeTaskSpec } from '../../src/main/core/tasks/spec-store';
import { runRecordOf } from '../../src/main/core/grading/run-record';
import type { PreparedRow } from '../../src/main/core/trajectories/import/prepare';
import { collectionsWriter } from '../../src/main/core/trajectories/collections.repo';
import { trajectoriesWriter } from '../../src/main/core/trajectories/trajectories-writer.repo';
import { leakRollout, leakTask, PLANTED_KEY } from '../helpers/leak-task';
import { createTestCore, FIXED_NOW, tempDir } from '../helpers/test-core';

const task = leakTask();

/** A run of the task stored as the app stores one: the canonical body, graded before anything is redacted. */
const stored = (t: Trajectory, trial: number): PreparedRow => ({
  taskId: t.task_id,
  traceId: t.trajectory_id,
  contentHash: t.trajectory_id,
  model: 'm',
  agent: 'm',
  source: 'run',
  sourceFormat: 'studio',
  sourceTaskId: t.task_id,
  taskSource: null,
  sourceReward: null,
  sourceCompletion: null,
  sourceSuccess: null,
  runId: null,
  trial,
  collection: 'runs',
  external: false,
  valid: true,
  counts: { messages: t.messages.length, toolCalls: t.dispatches.length, chars: 100 },
  tokens: null,
  durationMs: null,
  error: null,
  grade: grade(task.spec, runRecordOf(t)),
  raw: Buffer.from('{}'),
  contextId: null,
  file: null,
  line: null,
  trajectoryJson: JSON.stringify(t),
  searchText: '',
  warnings: [],
});

/** A workspace holding the task and two stored runs of it: one leaks the planted key, one does not. */
async function workspace() {
  const { core, workspacePath } = createTestCore({ seedDemo: false });
  await core.close();
  const db = openDb(workspacePath);
  const now = FIXED_NOW.toISOString();
  db.transaction(() => {
    const w = writeHandle(db);
    storeTaskSpec(w, task.spec, { origin: 'manual', now });
    collectionsWriter(w).ensureCollection('runs', [], now);
    trajectoriesWriter(w).insert(stored(leakRollout(task, true, 'leak'), 0), now);
    trajectoriesWriter(w).insert(stored(leakRollout(task, false, 'safe'), 1), now);
  })();
  return db;
}

describe('redaction never changes a stored trajectory grade in exports (issue 18 item 8)', () => {
  it('RL: the stored leak keeps reward 0 and grader.score 0, flagged; the clean run is unchanged', async () => {
    const db = await workspace();
    try {
      const { tasks, rollouts, groups, unredacted } = rlInputs(
        readHandle(db),
        RlSelection.parse({}),
        new RedactionTally(),
      );
      const out = path.join(tempDir(), 'rl');
      await exportRlPackage({ tasks, rollouts, groups, unredacted, advantage: 'grpo', outDir: out, clock: FIXED_NOW });
      const lines = fs
        .readFileSync(path.join(out, 'rollouts.jsonl'), 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      const byId = new Map(lines.map((l) => [l.trajectory_id, l]));
      expect([byId.get('leak').reward, byId.get('leak').grader.score]).toEqual([0, 0]);
      expect(byId.get('leak').redaction_changed_grade.checks).toEqual(['prohibited tool gmail_save_draft']);
      expect([byId.get('safe').reward, byId.get('safe').grader.score]).toEqual([1, 1]);
      expect(byId.get('safe')).not.toHaveProperty('redaction_changed_grade');
      expect(JSON.stringify(lines)).not.toContain(PLANTED_KEY);
    } finally {
      db.close();
    }
  });

  it('SFT: rejects the stored leak whose redacted text grades safe, exports the clean run', async () => {
    const db = await workspace();
    try {
      const out = path.join(tempDir(), 'sft');
      const selection = SftSelection.parse({ allUncurated: true });
      const r = exportSft({
        records: workspaceSftRecords(readHandle(db), selection, new RedactionTally()),
        dialect: 'openai',
        outDir: out,
        // No reward threshold: the leak (reward 0) reaches the body step, where redaction is checked.
        options: {
          pools: { mixed: { minReward: null, converter: false } },
          admittedBuckets: ['KEEP', 'TRIVIAL', 'UNBUCKETED'],
        },
      });
      const rejections = fs
        .readFileSync(path.join(out, 'rejections.jsonl'), 'utf8')
        .trimEnd()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      expect(rejections).toHaveLength(1);
      expect(rejections[0]).toMatchObject({ reason: 'redaction_changed_grade', step: 'dialect' });
      expect(rejections[0].detail).toContain('prohibited tool gmail_save_draft');
      expect(r.report.rejections.redaction_changed_grade?.count).toBe(1);
      expect(r.report.exported).toBe(1);
      const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
      expect(manifest.report.rejections.redaction_changed_grade.count).toBe(1);
      // The clean run is exported, with its own (stored) reward; the leak's 0 never reaches the retained rewards.
      expect(manifest.records.map((x: { trajectoryId: string }) => x.trajectoryId)).toEqual(['safe']);
      expect(manifest.report.retained.avgReward).toBe(1);
      const data = fs.readdirSync(out).find((f) => f.endsWith('.jsonl') && f !== 'rejections.jsonl')!;
      expect(fs.readFileSync(path.join(out, data), 'utf8')).not.toContain(PLANTED_KEY);
    } finally {
      db.close();
    }
  });
});
