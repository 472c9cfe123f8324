import { capableModel, startScriptedOpenAI } from '../helpers/scripted-openai';
import { docsShot, expect, test } from './fixtures';

// The key reaches `coworkenv serve` the way a user gives it in browser mode: an environment
// variable named after the endpoint (set before the server fixture spawns it).
const KEY = 'sk-e2e-0f1e2d3c4b5a69788796a5b4';
process.env.COWORKENV_KEY_E2E_LOCAL = KEY;

test.describe('Settings: model endpoints', () => {
  test('adds an endpoint on a scripted server, tests it, tells a wrong model apart — never showing the key', async ({
    app,
  }, testInfo) => {
    const srv = await startScriptedOpenAI({ script: capableModel(), requireKey: KEY, models: ['test-model'] });
    try {
      await app.getByRole('button', { name: 'Settings' }).click();
      await expect(app.getByText('No endpoints yet.')).toBeVisible();
      // Browser mode has no OS keychain: it says so and offers the environment variable.
      await expect(app.getByTestId('keychain-note')).toContainText('no OS keychain here');

      await app.getByRole('button', { name: 'Add endpoint' }).click();
      const dialog = app.getByRole('dialog', { name: 'Add endpoint' });
      await expect(dialog.getByRole('option', { name: /OS keychain/ })).toBeDisabled();
      await dialog.getByLabel('Name', { exact: true }).fill('e2e-local');
      await dialog.getByLabel('Base URL').fill(srv.baseUrl);
      await dialog.getByLabel('Model', { exact: true }).fill('test-model');
      await expect(dialog.getByLabel('Key source')).toHaveValue('env');
      await dialog.getByRole('button', { name: 'Add' }).click();
      await expect(dialog).toBeHidden();

      const row = app.getByTestId('endpoint-e2e-local');
      await expect(row.getByTestId('endpoint-key')).toContainText('present');
      await expect(row.getByTestId('endpoint-key')).toContainText('environment variable COWORKENV_KEY_E2E_LOCAL');

      await row.getByRole('button', { name: 'Test' }).click();
      const result = app.getByTestId('endpoint-test-e2e-local');
      await expect(result).toContainText(/Works — answered in \d+ ms/);
      await expect(result).toContainText('Tool calls: supported');
      await expect(result).toContainText('JSON mode: supported');
      await expect(row.locator('td').nth(3)).toHaveText('yes');
      await expect(row.locator('td').nth(4)).toHaveText('yes');

      // A wrong model name: the test says so and lists what the server serves.
      await app.getByRole('button', { name: 'Add endpoint' }).click();
      const second = app.getByRole('dialog', { name: 'Add endpoint' });
      await second.getByLabel('Name', { exact: true }).fill('wrong-model');
      await second.getByLabel('Base URL').fill(srv.baseUrl);
      await second.getByLabel('Model', { exact: true }).fill('gpt-nope');
      await second.getByLabel(/Variable name/).fill('COWORKENV_KEY_E2E_LOCAL');
      await second.getByRole('button', { name: 'Add' }).click();
      await app.getByTestId('endpoint-wrong-model').getByRole('button', { name: 'Test' }).click();
      const failed = app.getByTestId('endpoint-test-wrong-model');
      await expect(failed).toContainText('Failed: model not found');
      await expect(failed).toContainText('it serves: test-model');

      await app.screenshot({ path: testInfo.outputPath('settings.png') });
      await docsShot(app, 'settings.png');
      expect(await app.content()).not.toContain(KEY);
      expect(srv.chatRequests().length).toBeGreaterThanOrEqual(4);
      expect(srv.chatRequests().every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    } finally {
      await srv.close();
    }
  });
});
