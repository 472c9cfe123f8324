import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FULL_DATA, SHARED } from '../helpers/shared-data';
import { cli, docsShot, expect, test } from './fixtures';

const TAU_FILE = path.join(SHARED, 'corpora/trajectories/tau-bench/gpt-4o-airline.json');

test.describe('Export page', () => {
  test.skip(!FULL_DATA, 'needs the full corpora (../shared or COWORKENV_SHARED), not the shipped subset');

  test('shows live counts per reason and a record as the trainer sees it, then exports with progress', async ({
    app,
    server,
  }) => {
    const imported = await cli(server.workspace, ['trajectories', 'import', TAU_FILE]);
    expect(imported.code, imported.stderr).toBe(0);
    await app.getByRole('navigation').getByRole('button', { name: 'Export' }).click();
    await expect(app).toHaveURL(/#\/export$/);

    // Nothing is curated: the page says so and offers the uncurated trajectories.
    const notice = app.getByTestId('curation-notice');
    await expect(notice).toContainText('nothing is curated yet');
    await expect(app.getByTestId('sft-counts')).toContainText('0 exported');
    await notice.getByRole('button', { name: 'Include uncurated' }).click();
    await expect(app.getByTestId('sft-counts')).not.toContainText(' 0 exported');
    const counts = (await app.getByTestId('sft-counts').textContent()) ?? '';
    const exported = Number(/(\d+) exported/.exec(counts)?.[1]);
    expect(exported).toBeGreaterThan(0);
    // Rejections per reason, with example records; the threshold rejects τ-bench's failed runs.
    const rejections = app.getByTestId('rejections');
    await expect(rejections.getByRole('row', { name: /below threshold/ })).toContainText('reward 0 < 0.5');
    await expect(app.getByTestId('sft-sample')).toContainText('"messages"');
    await expect(app.getByTestId('sft-sample')).toContainText('"role": "assistant"');

    // A looser threshold updates the counts live: failed runs pass it, only the converter rejects.
    await app.getByLabel('Min reward').fill('0');
    await expect(rejections.getByRole('row', { name: /below threshold/ })).toHaveCount(0);
    await expect(app.getByTestId('sft-counts')).not.toContainText(`· ${exported} exported`);
    await app.getByLabel('Min reward').fill('');
    await expect(app.getByTestId('sft-counts')).toContainText(`${exported} exported`);
    // Not a reward: said so beside the field, and the pool's threshold stays in force.
    await app.getByLabel('Min reward').fill('1.5');
    await expect(app.getByLabel('Min reward')).toHaveAttribute('aria-invalid', 'true');
    await expect(app.getByText('a number from 0 to 1')).toBeVisible();
    await expect(app.getByTestId('sft-counts')).toContainText(`${exported} exported`);
    await app.getByLabel('Min reward').fill('');
    await expect(app.getByText('a number from 0 to 1')).toHaveCount(0);

    await docsShot(app, 'export.png');
    const exportButton = app.locator('.export-run').getByRole('button', { name: 'Export', exact: true });
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'coworkenv-e2e-export-')), 'trl');
    await app.getByLabel('Output folder').fill(out);
    // Rendered with the chosen chat template against a budget in characters (issue 18 item 9).
    await app.getByLabel('Chat template').selectOption('llama3.1');
    await app.getByLabel('Length budget', { exact: true }).fill('200');
    await app.getByLabel('Length budget unit').selectOption('chars');
    await exportButton.click();
    await expect(app.getByTestId('export-done')).toContainText(`${exported} records written to ${out}`);
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest.report.exported).toBe(exported);
    const render = manifest.report.render;
    expect(render).toMatchObject({ template: 'llama3.1', budget: { unit: 'chars', max: 200 } });
    expect(render.overBudget.count).toBeGreaterThan(0);
    const refused = `${render.failed} refused by the template`;
    await expect(app.getByTestId('export-done')).toContainText(
      `rendered with llama3.1: ${refused}, ${render.overBudget.count} over 200 characters`,
    );
    // The same folder again is refused (no overwrite).
    await exportButton.click();
    await expect(app.getByRole('alert')).toContainText('already exists');
  });
});

test.describe('Export page on a larger selection', () => {
  test('estimates from a sample (marked ≈, with the sample size) and counts exactly on request', async ({
    app,
    server,
  }) => {
    // The demo plan's 200 generated tasks × 3 reference-agent trials: 600 trajectories, above the preview's
    // budget of 500 bodies.
    expect((await cli(server.workspace, ['generate'])).code).toBe(0);
    const run = await cli(server.workspace, [
      'run',
      '--tasks',
      'all',
      '--agent',
      'reference',
      '--trials',
      '3',
      '--clean',
    ]);
    expect(run.code, run.stderr).toBe(0);
    await app.getByRole('navigation').getByRole('button', { name: 'Export' }).click();
    await app.getByTestId('curation-notice').getByRole('button', { name: 'Include uncurated' }).click();
    const estimate = app.getByTestId('sft-estimate');
    await expect(estimate).toContainText(/estimated \(≈\) from \d+ of 600 trajectories/);
    await expect(app.getByTestId('sft-counts')).toContainText(/≈ \d+ exported/);
    await estimate.getByRole('button', { name: 'Count exactly' }).click();
    await expect(estimate).toHaveCount(0);
    await expect(app.getByTestId('sft-counts')).toContainText(/600 trajectories · \d+ exported/);

    // The Jobs page names each job's work and links to what it made; nested settings are folded away.
    await app.getByRole('navigation').getByRole('button', { name: 'Jobs' }).click();
    const jobs = app.getByTestId('jobs-table');
    await expect(jobs).toContainText('reference agent on 200 tasks × 3');
    await expect(jobs).not.toContainText('[object Object]');
    await jobs.getByRole('button', { name: '200 tasks → tasks' }).waitFor();
    await jobs.getByRole('button', { name: /600 stored, pass 100 % → trajectories/ }).click();
    await expect(app).toHaveURL(/#\/trajectories$/);
  });
});
