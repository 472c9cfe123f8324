import type { Page } from '@playwright/test';
import { chat, held, startScriptedOpenAI } from '../helpers/scripted-openai';
import { cliCall, docsShot, expect, test } from './fixtures';

type RunReport = {
  k: number;
  overall: { pass_at_k: number | null; pass_hat_k: number | null; mean_score: number | null };
  histograms: { trajectory_scores: { count: number }[]; task_mean_scores: { count: number }[] };
};
type RunRow = { id: number; state: string; job_id: string };

const f4 = (x: number | null) => (x === null ? '–' : x.toFixed(4));

async function generateDemoTasks(app: Page) {
  await app.getByTestId('generate-below').click();
  await app.getByTestId('gen-start').click();
  await expect(app.getByTestId('gen-result')).toContainText('each produced valid tasks', { timeout: 60_000 });
  await app.keyboard.press('Escape');
}

const runs = (workspace: string) =>
  cliCall<{ rows: RunRow[] }>(workspace, 'runs.list', { kind: 'run' }).then((r) => r.rows);

test('plan → generate → run (reference, 2 trials) → report → compare → delete trajectories → curation rule', async ({
  app,
  server,
}) => {
  test.setTimeout(240_000);
  const ws = server.workspace;
  await generateDemoTasks(app);

  await app.getByRole('button', { name: 'Runs', exact: true }).click();
  await expect(app.getByTestId('runs-empty')).toBeVisible();
  const form = app.getByTestId('run-form');
  // The page checks with runs.start's schema, field by field, before anything starts.
  await form.getByLabel('Trials').fill('0');
  await form.getByTestId('run-start').click();
  await expect(form.getByTestId('error-trials')).toContainText('>=1');
  await form.getByLabel('Trials').fill('2');
  await expect(form.getByTestId('run-task-count')).toHaveText(/^\d+ tasks × 2 trials$/);
  await form.getByTestId('run-start').click();
  await expect(form).toBeHidden();

  await expect.poll(async () => (await runs(ws)).length).toBe(1);
  const [teacher] = await runs(ws);
  const row = app.getByTestId(`run-${teacher!.id}`);
  await expect(row.getByTestId('run-state')).toHaveText('done', { timeout: 120_000 });
  await row.getByRole('button', { name: 'Report' }).click();
  await expect(app).toHaveURL(new RegExp(`#/runs/${teacher!.id}$`));

  // The page's figures are the core's report for the same run, printed as `coworkenv report` prints them.
  const report = await cliCall<RunReport>(ws, 'runs.report', { runId: teacher!.id });
  expect(report.k).toBe(2);
  await expect(app.getByTestId('report-pass-at-k')).toHaveText(f4(report.overall.pass_at_k));
  await expect(app.getByTestId('report-pass-hat-k')).toHaveText(f4(report.overall.pass_hat_k));
  await expect(app.getByTestId('report-mean')).toHaveText(f4(report.overall.mean_score));
  await expect(app.getByTestId('report-leaderboard')).toContainText('split general');
  const counts = (bins: { count: number }[]) => bins.map((b) => b.count).join(',');
  await expect(app.getByTestId('hist-trajectories')).toHaveAttribute(
    'data-counts',
    counts(report.histograms.trajectory_scores),
  );
  await expect(app.getByTestId('hist-tasks')).toHaveAttribute(
    'data-counts',
    counts(report.histograms.task_mean_scores),
  );
  await expect(app.getByTestId('hist-trajectories').locator('canvas')).toBeVisible();
  await docsShot(app, 'runs.png');

  // A student: clean replays of the same tasks; the two reports side by side.
  await app.getByRole('button', { name: 'New run…' }).click();
  await form.getByLabel('Trials').fill('2');
  await form.getByText('Clean replays').click();
  await form.getByLabel('Name').fill('student');
  await form.getByTestId('run-start').click();
  await expect.poll(async () => (await runs(ws)).length).toBe(2);
  const student = (await runs(ws)).find((r) => r.id !== teacher!.id)!;
  await expect(app.getByTestId(`run-${student.id}`).getByTestId('run-state')).toHaveText('done', {
    timeout: 120_000,
  });
  await app.getByLabel('Compare with').selectOption(String(student.id));
  await expect(app).toHaveURL(new RegExp(`#/runs/${teacher!.id}/compare/${student.id}$`));
  const other = await cliCall<RunReport>(ws, 'runs.report', { runId: student.id, k: 2 });
  const passRow = app.getByTestId('compare-overall').locator('tr', { hasText: 'Pass@2' });
  await expect(passRow.locator('td').nth(0)).toHaveText(f4(report.overall.pass_at_k));
  await expect(passRow.locator('td').nth(1)).toHaveText(f4(other.overall.pass_at_k));
  await docsShot(app, 'run-compare.png');

  // Trajectories: delete the student's by filter, after a confirm that says how many.
  await app.setViewportSize({ width: 1400, height: 820 });
  await app.getByRole('button', { name: 'Trajectories', exact: true }).click();
  const { collection: quick } = await cliCall<{ collection: string }>(ws, 'runs.get', { id: student.id });
  await app.getByPlaceholder('Task, agent, collection…').fill(quick);
  const matching = await cliCall<{ total: number }>(ws, 'trajectories.ids', { filters: [], quick });
  expect(matching.total).toBeGreaterThan(0);
  await expect(app.getByTestId('status-rows')).toContainText(`${matching.total} of`);
  await app.getByTestId('delete-matching').click();
  await expect(app.getByTestId('delete-count')).toHaveText(
    `Delete ${matching.total} trajectories matching the filter?`,
  );
  await app.getByTestId('delete-confirm').click();
  await expect(app.getByTestId('trajectories-notice')).toContainText(`Deleted ${matching.total} trajectories`);
  expect((await cliCall<{ total: number }>(ws, 'trajectories.ids', { filters: [], quick })).total).toBe(0);
  const left = await cliCall<{ total: number }>(ws, 'trajectories.ids', { filters: [] });
  expect(left.total).toBe(report.histograms.trajectory_scores.reduce((n, b) => n + b.count, 0));

  // Curation: edit a threshold of the pool; the preview counts what would change before it is applied.
  await app.getByRole('button', { name: 'Curation', exact: true }).click();
  const rules = app.getByTestId('curation-rules');
  await rules.getByText('Bucket rules per pool').click();
  await rules.getByLabel('Unsolvable below').fill('0.97');
  await expect(rules.getByTestId('rule-error-trivialMin')).toContainText('or no task can be KEEP');
  await rules.getByLabel('Unsolvable below').fill('0.2');
  const edit = { pool: 'mixed', unsolvableBelow: 0.2, trivialMin: 0.95, minAttempts: 1, passK: 3 };
  const preview = await cliCall<{ changed: number; tasks: number }>(ws, 'curation.previewRule', {
    ...edit,
    trivialAllPass: false,
  });
  await expect(rules.getByTestId('rule-preview')).toContainText(
    `${preview.changed} of ${preview.tasks} tasks would change suggested bucket`,
  );
  await rules.getByTestId('rule-apply').click();
  await expect(app.getByTestId('curation-notice')).toContainText('Type a reason first');
  await app.getByTestId('curation-reason').fill('fewer UNSOLVABLE for the reference agent');
  await rules.getByTestId('rule-apply').click();
  await expect(app.getByTestId('curation-notice')).toContainText('Rules of pool mixed saved');
  const saved = await cliCall<{ pool: string; unsolvableBelow: number }[]>(ws, 'curation.rules', {});
  expect(saved.find((r) => r.pool === 'mixed')?.unsolvableBelow).toBe(0.2);
  await expect(rules.getByTestId('rule-preview')).toContainText(`0 of ${preview.tasks} tasks`);
});

test('a run on a model endpoint is cancelled while it waits on the model, then resumed to the end', async ({
  app,
  server,
}) => {
  test.setTimeout(180_000);
  const ws = server.workspace;
  // The model holds every request until the test lets it answer: the cancel cannot race the run's end.
  let answering = false;
  const srv = await startScriptedOpenAI({
    script: () => (answering ? chat('I am done with this task.') : held()),
    models: ['test-model'],
  });
  try {
    await cliCall(ws, 'endpoints.add', {
      name: 'student',
      base_url: srv.baseUrl,
      model: 'test-model',
      key_source: 'none',
    });
    await generateDemoTasks(app);
    const ids = await cliCall<{ ids: string[] }>(ws, 'tasks.ids', { filters: [], limit: 2 });
    await app.goto(`${server.url}/#/runs`);
    const form = app.getByTestId('run-form');
    await form.getByText('these ids').click();
    await form.getByLabel('Task ids').fill(ids.ids.join(', '));
    await form.getByLabel('Agent', { exact: true }).selectOption('endpoint:student');
    await form.getByLabel('Trials').fill('1');
    await form.getByLabel('Concurrency').fill('1');
    await expect(form.getByTestId('run-task-count')).toHaveText('2 tasks × 1 trials');
    await form.getByTestId('run-start').click();

    await srv.chatsArrived(1);
    const [run] = await runs(ws);
    const row = app.getByTestId(`run-${run!.id}`);
    await expect(row.getByTestId('run-state')).toHaveText('running');
    await row.getByRole('button', { name: 'Cancel' }).click();
    await expect(row.getByTestId('run-state')).toHaveText('cancelled');
    expect((await runs(ws))[0]!.state).toBe('cancelled');

    answering = true;
    await row.getByRole('button', { name: 'Resume' }).click();
    await expect(row.getByTestId('run-state')).toHaveText('done', { timeout: 120_000 });
    await expect(row).toContainText('2 / 2');
    const report = await cliCall<RunReport & { tasks: unknown[] }>(ws, 'runs.report', { runId: run!.id });
    expect(report.tasks).toHaveLength(2);
  } finally {
    await srv.close();
  }
});
