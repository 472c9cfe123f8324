import fs from 'node:fs';
import path from 'node:path';
import { messagesRow, writeJsonl, writeTauBench } from '../helpers/tau-records';
import { tempDir } from '../helpers/temp';
import { cli, cliCall, expect, test } from './fixtures';

const SHARED = path.resolve(__dirname, '../../../shared');
const CLAW_ROOT = path.join(SHARED, 'corpora/claw-eval');

/** Issues 17 and 19 in the Trajectories grid: the Source column, the Warnings column, the viewer's warnings. */
test.describe('Trajectories page: task source and import warnings', () => {
  test.skip(!fs.existsSync(path.join(CLAW_ROOT, 'tasks')), 'needs ../shared (a Claw-Eval task to grade against)');
  // The grid renders only the columns on screen; the upstream-grade columns put Warnings past 1,400 px.
  test.use({ viewport: { width: 2600, height: 900 } });

  test('filters by source and by warnings; the viewer lists a record’s warnings', async ({ app, server }) => {
    const dir = tempDir('e2e-warnings-');
    await cliCall(server.workspace, 'tasks.import', { paths: [CLAW_ROOT] });
    const airline = writeTauBench(dir, 'airline.json', 'airline', [{ task: 0, trial: 0, reward: 1 }]);
    const retail = writeTauBench(dir, 'retail.json', 'retail', [{ task: 0, trial: 0, reward: 0 }]);
    expect((await cli(server.workspace, ['trajectories', 'import', airline, retail, '--collection', 'tau'])).code).toBe(
      0,
    );
    const rows = [0, 1].map((trial) => messagesRow({ task: 'their-own', trial, reward: 1 }));
    const graded = await cli(server.workspace, [
      'trajectories',
      'import',
      writeJsonl(dir, 'graded.jsonl', rows),
      '--task',
      'T018_ticket_triage',
    ]);
    expect(JSON.parse(graded.stdout).data).toMatchObject({ stored: 2, warned: 2 });

    await app.goto(`${server.url}/#/trajectories`);
    await expect(app.getByTestId('status-rows')).toHaveText('4 trajectories');
    await app.locator('.ag-header-cell[col-id="task_source"] .ag-header-cell-filter-button').click();
    const sources = app.getByTestId('set-filter-task_source');
    await expect(sources.locator('.set-value')).toHaveText(['(blank)', 'tau-bench/airline', 'tau-bench/retail']);
    await app.keyboard.press('Escape');

    await app.locator('.ag-header-cell[col-id="warnings"] .ag-header-cell-filter-button').click();
    const counts = app.getByTestId('set-filter-warnings');
    await expect(counts.locator('.set-value')).toHaveText(['0', '2']);
    await counts.locator('.set-option', { hasText: /^0/ }).locator('input').uncheck();
    await expect(app.getByTestId('status-rows')).toHaveText('2 of 4 trajectories (filtered)');
    await app.keyboard.press('Escape');

    await app.locator('.ag-row[row-index="0"] [col-id="task_id"]').click();
    const warnings = app.getByTestId('row-warnings');
    await expect(warnings.locator('li')).toHaveCount(2);
    await expect(warnings).toContainText('graded here against the checks of T018_ticket_triage');
  });
});
