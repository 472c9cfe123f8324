import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportClawEval } from '../../src/main/core/export/claw-eval/export-claw-eval';
import type { ExportTask } from '../../src/main/core/export/export-task';
import { grade } from '../../src/main/core/grading/grade';
import { lineOf } from '../../src/main/core/tasks/claw-eval/coworkenv-block';
import { runRecordOf } from '../../src/main/core/grading/run-record';
import { readTrace, writeTrace } from '../../src/main/core/traces';
import type { Trajectory } from '../../src/shared/contract/entities/trajectory';
import { ok } from '../helpers/call';
import { generatedTasks } from '../helpers/generated-tasks';
import { deterministicTask, handTask, planTurns, rollout } from '../helpers/rollouts';
import { createTestCore } from '../helpers/test-core';
import { tempDir } from '../helpers/temp';
import { trickyTask } from '../helpers/tricky-task';

/**
 * Issue 19 item 5: "Re-importing the app's own Claw-Eval export changes the grading: the importer never reads the
 * export's grading block, so reference runs that scored 1.0 re-grade to 0". Every task, not a sample: its reference
 * run (and a run that breaks a prohibited rule) graded before the export and after a re-import into a fresh workspace.
 */
const traceOf = (t: Trajectory) =>
  writeTrace(t, { now: () => new Date('2026-04-10T09:00:00Z'), traceId: '00000000-0000-4000-8000-000000000001' });

describe('a Claw-Eval export re-imported into a fresh workspace grades identically', { timeout: 240_000 }, () => {
  const generated: ExportTask[] = generatedTasks(26).map((spec) => ({ spec, fixtures: [], origin: 'generated' }));
  const tasks = [handTask(), deterministicTask(), trickyTask(), ...generated].map((t, i) =>
    i === 1 ? { ...t, spec: { ...t.spec, task_id: 'HW002_det' } } : t,
  );
  let out: string;
  const fresh = createTestCore({ seedDemo: false });
  beforeAll(async () => {
    out = path.join(tempDir(), 'claw');
    await exportClawEval({ tasks, outDir: out });
  });
  afterAll(() => fresh.core.close());

  it('every task imports, and every reference run and prohibited-call run keeps its grade', async () => {
    expect(generated.length).toBe(26);
    const imported = await ok(fresh.core, 'tasks.import', { paths: [out] });
    expect(imported.counts).toMatchObject({ imported: tasks.length, errors: 0 });
    let perfect = 0;
    for (const t of tasks) {
      const runs = [rollout(t, planTurns(t), t.spec.reference_final_text ?? '', 'reference')];
      const rule = t.spec.prohibited.find((r) => r.kind === 'tool');
      if (rule?.kind === 'tool') runs.push(rollout(t, [...planTurns(t), [{ tool: rule.tool }]], '', 'prohibited'));
      for (const run of runs) {
        const traceJsonl = traceOf(run);
        const before = grade(t.spec, runRecordOf(readTrace(traceJsonl).trajectory));
        const after = await ok(fresh.core, 'grading.gradeTrace', { taskId: t.spec.task_id, traceJsonl });
        expect(after.grade, `${t.spec.task_id} ${run.trajectory_id}`).toStrictEqual(before);
        if (before.score === 1) perfect++;
      }
    }
    // The generated tasks' reference runs score 1.0 (what re-graded to 0 before the importer read the block).
    expect(perfect).toBeGreaterThanOrEqual(generated.length);
  });

  it('a hand-edited block that is not valid is refused, naming file, line and field', async () => {
    const id = generated[0]!.spec.task_id;
    const file = path.join(out, 'tasks', id, 'task.yaml');
    const text = fs.readFileSync(file, 'utf8');
    const edited = text.replace(/(\n {6}weight: )[0-9.e-]+/, '$1heavy');
    expect(edited).not.toBe(text);
    const dir = path.join(tempDir(), 'edited');
    fs.cpSync(path.dirname(file), path.join(dir, 'tasks', id), { recursive: true });
    fs.writeFileSync(path.join(dir, 'tasks', id, 'task.yaml'), edited);
    const line = lineOf(edited, ['coworkenv', 'checks', 0, 'weight']);
    expect(edited.split('\n')[line! - 1]).toMatch(/weight: heavy/);
    const other = createTestCore({ seedDemo: false });
    try {
      const r = await ok(other.core, 'tasks.import', { paths: [dir] });
      expect(r.outcomes[0]!.errors).toEqual([
        `${path.join(dir, 'tasks', id, 'task.yaml')}:${line}: field coworkenv.checks.0.weight: ` +
          'Invalid input: expected number, received string',
      ]);
    } finally {
      await other.core.close();
    }
  });
});
