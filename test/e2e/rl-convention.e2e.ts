import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli, expect, test } from './fixtures';

/** Issue 18 item 7: the RL section offers the trainer's convention, the preview says which, the package records it. */
test('the RL package: the convention is chosen on the page, shown by the preview and recorded', async ({
  app,
  server,
}) => {
  expect((await cli(server.workspace, ['generate', '--slots', '1', '--per-slot', '2'])).code).toBe(0);
  const run = await cli(server.workspace, ['run', '--tasks', 'all', '--agent', 'reference', '--trials', '2']);
  expect(run.code, run.stderr).toBe(0);
  await app.getByRole('navigation').getByRole('button', { name: 'Export' }).click();
  await app.getByRole('tab', { name: 'RL package' }).click();

  // The default: verl's arithmetic (torch.std, + 1e-6).
  const line = app.getByTestId('rl-convention');
  await expect(line).toContainText('verl v0.9.0: σ sample (n − 1, torch.std), divided by σ + 0.000001');
  // GiGPO has no TRL implementation: the option is disabled; GDPO none in verl.
  await app.getByLabel('Advantage').selectOption('gigpo');
  await expect(app.getByLabel('Convention').locator('option[value="trl"]')).toBeDisabled();
  await expect(line).toContainText('verl');
  await app.getByLabel('Advantage').selectOption('gdpo');
  await expect(app.getByLabel('Convention').locator('option[value="verl"]')).toBeDisabled();
  await expect(line).toContainText('trl v1.9.0');
  await app.getByLabel('Advantage').selectOption('grpo');
  await app.getByLabel('Convention').selectOption('paper');
  await expect(line).toContainText('paper: σ population');

  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'coworkenv-e2e-rl-')), 'rl');
  await app.getByLabel('Output folder').fill(out);
  await app.locator('.export-run').getByRole('button', { name: 'Export', exact: true }).click();
  await expect(app.getByTestId('export-done')).toContainText(`written to ${out}`);
  const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
  expect(manifest.advantage.convention.name).toBe('paper');
  expect(fs.readFileSync(path.join(out, 'verl/trainer_overrides.txt'), 'utf8')).toContain('rollout.n=8');
});
