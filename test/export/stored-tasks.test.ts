import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { openDb, readHandle, writeHandle } from '../../src/main/core/db/sqlite';
import { taskSpecOfExport } from '../../src/main/core/tasks/claw-eval/coworkenv-block';
import { exportClawEval } from '../../src/main/core/export/claw-eval/export-claw-eval';
import { storedExportTask } from '../../src/main/core/export/export-task';
import { exportRlPackage } from '../../src/main/core/export/rl/export-rl';
import { readClawTask } from '../../src/main/core/tasks/claw-eval/read-task';
import { locateTasks } from '../../src/main/core/tasks/claw-eval/task-files';
import { storeTaskSpec } from '../../src/main/core/tasks/spec-store';
import { tasksRepo } from '../../src/main/core/tasks/tasks.repo';
import { ok } from '../helpers/call';
import { hasCorpus } from '../helpers/corpus-tasks';
import { CLAW_ROOT } from '../helpers/goldens';
import { createTestCore, FIXED_NOW, tempDir } from '../helpers/test-core';
import { validTask } from '../validation/valid-task';

/** The exporters fed from a real workspace, as the handlers will feed them (storedExportTask). */
describe.skipIf(!hasCorpus)('exports of stored tasks', () => {
  it('imported and hand-written workspace tasks export to Claw-Eval folders and back, and to RL packages', async () => {
    const root = tempDir('claw-root-');
    for (const id of ['T011zh_expense_report', 'T012_expense_report'])
      fs.cpSync(path.join(CLAW_ROOT, 'tasks', id), path.join(root, 'tasks', id), { recursive: true });
    const { core, workspacePath } = createTestCore({ seedDemo: false });
    await ok(core, 'tasks.import', { paths: [root] });
    await core.close();
    const db = openDb(workspacePath);
    try {
      const hand = TaskSpec.parse(validTask());
      db.transaction(() => storeTaskSpec(writeHandle(db), hand, { origin: 'manual', now: FIXED_NOW.toISOString() }))();
      const repo = tasksRepo(readHandle(db));
      const tasks = ['T011zh_expense_report', 'T012_expense_report', hand.task_id].map((id) =>
        storedExportTask(repo, id),
      );
      expect(tasks.map((t) => [t.origin, t.version, t.spec.checks_origin])).toEqual([
        ['imported', 1, 'derived_from_task_yaml'],
        ['imported', 1, 'derived_from_task_yaml'],
        ['manual', 1, 'authored'],
      ]);
      expect(tasks[1]!.fixtures[0]!.source).toBe('tasks/T011zh_expense_report/fixtures/finance/transactions.json');

      const out = path.join(tempDir(), 'claw');
      await exportClawEval({ tasks, outDir: out });
      for (const id of ['T011zh_expense_report', 'T012_expense_report'])
        expect(fs.readFileSync(path.join(out, 'tasks', id, 'task.yaml'))).toEqual(
          fs.readFileSync(path.join(root, 'tasks', id, 'task.yaml')),
        );
      const back = new Map(locateTasks(out).map((l) => [path.basename(l.dir), readClawTask(l)]));
      for (const t of tasks.slice(0, 2)) expect(back.get(t.spec.task_id)!.contentHash).toBe(t.contentHash);
      expect(taskSpecOfExport(back.get(hand.task_id)!)).toStrictEqual(hand);

      const pkg = await exportRlPackage({ tasks, outDir: path.join(tempDir(), 'pkg'), clock: FIXED_NOW });
      expect(pkg.counts).toMatchObject({ tasks: 3, toolsets: 3 }); // zh and en descriptions differ: two toolsets
    } finally {
      db.close();
    }
  });
});
