import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportClawEval } from '../../src/main/core/export/claw-eval/export-claw-eval';
import { writeTrace } from '../../src/main/core/traces';
import { PYTHON } from '../helpers/python';
import { handTask, planTurns, rollout } from '../helpers/rollouts';
import { validTask } from '../validation/valid-task';
import { cliCall, docsShot, expect, test } from './fixtures';

/** The stand-in checkout (test/fixtures/claw-eval-checkout, not upstream code): T900 passes, T901 raises. */
const ROOT = path.resolve(__dirname, '../fixtures/claw-eval-checkout');

/** Two imported tasks with their own grader.py in the stand-in, one run of each stored. */
async function seed(workspace: string): Promise<{ pass: number; crash: number }> {
  // No llm_judge check: the app's pass/fail is known without a judge endpoint.
  const checks = (validTask().checks as { id: string; kind: string; weight: number }[])
    .filter((c) => c.kind !== 'llm_judge')
    .map((c) => (c.id === 'reported' ? { ...c, weight: 0.2 } : c));
  const tasks = ['T900_stub', 'T901_crash'].map((id) => handTask({ task_id: id, checks }));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'coworkenv-e2e-claw-'));
  await exportClawEval({ tasks, outDir: out });
  await cliCall(workspace, 'tasks.import', { paths: [out] });
  const [pass, crash] = await Promise.all(
    tasks.map(async (task) => {
      const traceJsonl = writeTrace(rollout(task, planTurns(task), task.spec.reference_final_text ?? ''));
      return (await cliCall<{ id: number }>(workspace, 'trajectories.importTrace', { traceJsonl })).id;
    }),
  );
  return { pass: pass!, crash: crash! };
}

test.describe('Upstream grader', () => {
  test.skip(!PYTHON.ok, 'needs python3 to run the stand-in checkout’s grader.py');

  test('Settings → Check, then grade a selection with grader.py and see agreement per task', async ({
    app,
    server,
  }) => {
    const ids = await seed(server.workspace);
    // Not set up yet: the pages say whose reading the imported scores are.
    await app.getByRole('button', { name: 'Trajectories' }).click();
    await expect(app.getByTestId('upstream-notice')).toContainText("the app's reading of task.yaml");
    await expect(app.getByTestId('upstream-notice')).toContainText('no Claw-Eval checkout is set');

    await app.getByRole('button', { name: 'Set up the upstream grader' }).click();
    const setting = app.getByTestId('upstream-setting');
    await setting.getByTestId('upstream-root').fill(path.join(ROOT, 'missing'));
    await setting.getByTestId('upstream-save').click();
    await expect(app.getByTestId('upstream-missing')).toContainText('does not exist');
    await setting.getByTestId('upstream-root').fill(ROOT);
    await setting.getByTestId('upstream-save').click();
    const result = app.getByTestId('upstream-check-result');
    await expect(result).toContainText('Usable');
    await expect(result).toContainText(/Python: yes python3 3\.\d+/);
    await expect(app.getByTestId('upstream-check-tasks')).toContainText(
      '2 of 2 imported tasks have a grader.py in the checkout',
    );
    await setting.getByTestId('upstream-check').click();
    await expect(result).toContainText('Usable');

    await app.getByRole('button', { name: 'Trajectories' }).click();
    await expect(app.getByTestId('upstream-notice')).toHaveCount(0);
    const grid = app.getByTestId('trajectories-grid');
    for (const id of [ids.pass, ids.crash])
      await grid.locator(`.ag-row[row-id="${id}"] input[type="checkbox"]`).first().check();
    await app.getByTestId('upstream-grade').click();
    await expect(app.getByTestId('upstream-grade-count')).toContainText('2 trajectories selected');
    await app.getByTestId('upstream-grade-start').click();
    const done = app.getByTestId('upstream-grade-result');
    await expect(done).toContainText('1 graded by grader.py (judge none): 1 agree');
    await expect(done).toContainText('1 failed');
    // The failure names the file and the reason, and what to do about it.
    const errors = app.getByTestId('upstream-grade-errors');
    await expect(errors).toContainText(path.join(ROOT, 'tasks/T901_crash/grader.py'));
    await expect(errors).toContainText("AttributeError: 'NoneType' object has no attribute 'evaluate'");
    await expect(errors).toContainText('none is set in Settings → Judge');
    await app.getByRole('button', { name: 'Close', exact: true }).click();

    // Beside the app's score in the grid, from the same query as the per-task view.
    const cellOf = (id: number, field: string) => grid.locator(`.ag-row[row-id="${id}"] [col-id="${field}"]`);
    await expect(cellOf(ids.pass, 'upstream_agrees')).toHaveText('yes');
    await expect(cellOf(ids.crash, 'upstream_agrees')).toHaveText('');
    await app.getByTestId('upstream-agreement-toggle').click();
    const view = app.getByTestId('upstream-agreement');
    // Task, graded upstream, agree, disagree, agreement, upstream failed, app judge pending.
    const cells = (task: string) => view.getByTestId(`agreement-${task}`).locator('td');
    await expect(cells('T900_stub')).toHaveText(['T900_stub', '1', '1', '0', '100.0 %', '0', '0']);
    await expect(cells('T901_crash')).toHaveText(['T901_crash', '1', '0', '0', '—', '1', '0']);
    await expect(view.getByTestId('agreement-total')).toHaveText('100.0 %');
    await docsShot(app, 'upstream-agreement.png');
    // The Jobs page links the finished job to what it made.
    await app.getByRole('button', { name: 'Jobs' }).click();
    await expect(app.getByText('1 graded by grader.py, 1 agree, 1 failed → trajectories')).toBeVisible();
  });
});
