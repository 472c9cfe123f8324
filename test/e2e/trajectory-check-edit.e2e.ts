import fs from 'node:fs';
import path from 'node:path';
import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { planRunJsonl } from '../helpers/plan-run';
import { cliCall, expect, test } from './fixtures';

type Job = { jobId: string };
type Row = { id: number; task_id: string; origin: string; score: number | null };

test('edit a check of a generated task in the viewer: saved as a version, its trajectories re-graded at once', async ({
  app,
  server,
}, testInfo) => {
  const ws = server.workspace;
  await cliCall(ws, 'plan.create', {
    rows: [
      {
        family: 'fam',
        services: ['helpdesk', 'kb'],
        category: 'communication',
        difficulty: 'hard',
        language: 'en',
        reference_date: '2026-03-02',
        scenario: 'cross_service',
        target_count: 1,
        notes: '',
      },
    ],
  });
  const gen = await cliCall<Job>(ws, 'generation.run', { slots: 'below_target', seed: 5 });
  await cliCall(ws, 'jobs.wait', { id: gen.jobId, timeoutMs: 120_000 });
  const task = (await cliCall<{ rows: Row[] }>(ws, 'tasks.list', { limit: 500 })).rows.find(
    (r) => r.origin === 'generated',
  )!;
  const spec = (await cliCall<{ spec: TaskSpec }>(ws, 'tasks.get', { taskId: task.task_id })).spec;
  const file = testInfo.outputPath('runs.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${planRunJsonl(spec)}\n`);
  const imp = await cliCall<Job>(ws, 'trajectories.import', {
    paths: [file],
    format: 'openai-jsonl',
    taskId: task.task_id,
  });
  await cliCall(ws, 'jobs.wait', { id: imp.jobId, timeoutMs: 120_000 });
  const row = (await cliCall<{ rows: Row[] }>(ws, 'trajectories.list', {})).rows[0]!;
  const check = spec.checks.find((c) => c.kind === 'tool_called')!;

  await app.getByRole('button', { name: 'Trajectories' }).click();
  await app.locator(`.ag-row[row-id="${row.id}"] [col-id="task_id"]`).click();
  const viewer = app.getByTestId('trajectory-viewer');
  await expect(app.getByTestId(`check-${check.id}`)).toContainText('met');
  await app.getByTestId(`edit-check-${check.id}`).click();
  const editor = app.getByTestId('check-editor');
  const json = JSON.parse(await editor.getByLabel('Check JSON').inputValue());
  expect(json).toMatchObject({ id: check.id, kind: 'tool_called' });
  await editor.getByLabel('Check JSON').fill(JSON.stringify({ ...json, min_count: 99 }, null, 2));
  await app.getByTestId('save-check').click();
  await expect(app.getByTestId('viewer-notice')).toContainText('Saved as version 2');
  await expect(app.getByTestId('viewer-notice')).toContainText('re-graded 1 trajectories, 1 changed score');
  await expect(app.getByTestId(`check-${check.id}`)).toContainText('failed');
  // The grid row shows the new score (table.changed refetches it).
  const after = (await cliCall<{ rows: Row[] }>(ws, 'trajectories.list', {})).rows[0]!;
  expect(after.score).toBeLessThan(row.score!);
  await expect(app.locator(`.ag-row[row-id="${row.id}"] [col-id="score"]`)).toHaveText(after.score!.toFixed(4));
  await expect(viewer.getByTestId('grade-score')).toContainText(after.score!.toFixed(4));

  // Undo (Ctrl+Z, issue 21 item 3): the check comes back as a new version and the trajectory is re-graded back.
  await app.getByTestId('trajectory-viewer').locator('h2').click();
  await app.keyboard.press('Control+z');
  await expect(app.getByTestId('viewer-notice')).toContainText(`Undid edit of check ${check.id}`);
  await expect(app.getByTestId('viewer-notice')).toContainText('now version 3; re-graded 1 trajectories, 1 changed');
  await expect(app.getByTestId(`check-${check.id}`)).toContainText('met');
  await expect(app.locator(`.ag-row[row-id="${row.id}"] [col-id="score"]`)).toHaveText(row.score!.toFixed(4));
  await expect(app.getByTestId('undo-check')).toHaveCount(0);
});
