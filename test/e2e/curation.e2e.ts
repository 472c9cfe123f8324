import path from 'node:path';
import { FULL_DATA, SHARED } from '../helpers/shared-data';
import { cli, docsShot, expect, test } from './fixtures';

const TAU_BENCH = path.join(SHARED, 'corpora/trajectories/tau-bench/gpt-4o-airline.json');

test.describe('Curation page', () => {
  // The grid shows all 50 τ-bench tasks.
  test.skip(!FULL_DATA, 'needs the full corpora (../shared or COWORKENV_SHARED), not the shipped subset');

  test('select rows, press K, reload: the bucket and the log entry are there; CLI edits appear live', async ({
    app,
    server,
  }) => {
    const imported = await cli(server.workspace, ['trajectories', 'import', TAU_BENCH]);
    expect(imported.code).toBe(0);
    await app.getByRole('button', { name: 'Curation' }).click();
    const grid = app.getByTestId('curation-grid');
    await expect(app.getByTestId('status-rows')).toHaveText('50 tasks');
    const row = (id: string) => grid.locator(`.ag-row[row-id="${id}"]`);
    // The grid sorts by mean completion ascending: the first rows are tasks no attempt solved.
    await expect(grid.locator('.ag-row[row-id]').first()).toBeVisible();
    /** Row ids in display order (pinned and centre containers both hold each row: dedupe by row index). */
    const rowIds = () =>
      grid.locator('.ag-row[row-id][row-index]').evaluateAll((rows) => {
        const byIndex = new Map(rows.map((r) => [Number(r.getAttribute('row-index')), r.getAttribute('row-id')!]));
        return [...byIndex].sort((x, y) => x[0] - y[0]).map((e) => e[1]);
      });
    const ids = (await rowIds()).slice(0, 2);
    expect(ids.length).toBe(2);
    await expect(row(ids[0]!).locator('[col-id="suggested"]')).toHaveText('UNSOLVABLE');

    await app.getByTestId('curation-reason').fill('worth keeping: policy edge cases');
    for (const id of ids) await grid.locator(`.ag-row[row-id="${id}"] input[type="checkbox"]`).first().check();
    await expect(app.getByTestId('status-selected')).toContainText('2');
    await app.locator('body').click({ position: { x: 5, y: 5 } });
    await app.keyboard.press('k');
    await expect(app.getByTestId('curation-notice')).toContainText('Assign KEEP: 2 changed');

    await app.reload();
    await expect(app.getByTestId('status-rows')).toHaveText('50 tasks');
    for (const id of ids) await expect(row(id).locator('[col-id="bucket"]')).toHaveText('KEEP');
    const log = app.getByTestId('curation-log');
    await expect(
      log.locator('[col-id="reason"]').filter({ hasText: 'worth keeping: policy edge cases' }),
    ).toBeVisible();
    await expect(log.locator('.ag-row[row-id] [col-id="value"]').first()).toHaveText('KEEP');
    // The score-basis table lays out as a table: its header row sits wholly above its first collection's row
    // (it was styled as a two-column definition list, and the row was drawn over the header).
    const basis = app.getByTestId('score-basis');
    const bottoms = await basis
      .locator('thead th')
      .evaluateAll((ths) => ths.map((e) => e.getBoundingClientRect().bottom));
    const tops = await basis.locator('tbody td').evaluateAll((tds) => tds.map((e) => e.getBoundingClientRect().top));
    expect(tops.length).toBeGreaterThan(0);
    expect(Math.min(...tops)).toBeGreaterThanOrEqual(Math.max(...bottoms) - 1);
    await docsShot(app, 'curation.png');

    // Another terminal assigns a third task: the open grid shows it without a reload.
    const third = (await rowIds())[2];
    const r = await cli(server.workspace, [
      'curate',
      'assign',
      '--bucket',
      'TRIVIAL',
      '--tasks',
      third!,
      '--reason',
      'cli',
    ]);
    expect(r.code).toBe(0);
    await expect(row(third!).locator('[col-id="bucket"]')).toHaveText('TRIVIAL');
    await expect(app.getByTestId('chart-histogram')).toBeVisible();
  });
});
