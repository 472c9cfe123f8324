import path from 'node:path';
import { CLAW_ROOT, FULL_DATA } from '../helpers/shared-data';
import { cliCall, expect, test } from './fixtures';

const T019 = 'T019zh_inventory_check';
type Rows = { rows: Record<string, string>[] };

test.describe('Tasks and fixture grids', () => {
  // The grid shows all 44 tasks T001–T044.
  test.skip(!FULL_DATA, 'needs the full corpora (../shared or COWORKENV_SHARED), not the shipped subset');

  test('the import box takes a …/tasks folder; Enter opens a task at its own URL', async ({ app }) => {
    await app.getByRole('button', { name: 'Tasks' }).click();
    await expect(app.getByTestId('empty-state')).toContainText('Import Claw-Eval tasks');
    await app.getByLabel('Import path').fill(path.join(CLAW_ROOT, 'tasks'));
    await app.getByRole('button', { name: 'Import' }).click();
    await expect(app.getByTestId('tasks-notice')).toContainText('44 imported');
    await app.locator(`.ag-row[row-id="${T019}"] [col-id="name"]`).click();
    await app.getByRole('button', { name: 'close' }).click();
    await expect(app).toHaveURL(/#\/tasks$/);
    await app.locator(`.ag-row[row-id="${T019}"] [col-id="name"]`).click();
    await app.getByRole('button', { name: 'close' }).click();
    await app.locator(`.ag-row[row-id="${T019}"] [col-id="category"]`).click();
    await app.getByRole('button', { name: 'close' }).click();
    await app.locator(`.ag-row[row-id="${T019}"] [col-id="split"]`).focus();
    await app.keyboard.press('Enter');
    await expect(app).toHaveURL(new RegExp(`#/tasks/${T019}$`));
    await expect(app.getByTestId('task-detail').getByRole('heading', { name: T019 })).toBeVisible();
    await app.reload();
    await expect(app.getByTestId('task-detail').getByRole('heading', { name: T019 })).toBeVisible();
  });

  test('fixture edits keep types, refuse duplicates, revalidate; undo, history, diff, revert (bugs 1, 2)', async ({
    app,
    server,
  }) => {
    await cliCall(server.workspace, 'tasks.import', { paths: [CLAW_ROOT] });
    await app.goto(`${server.url}/#/tasks/${T019}`);
    const grid = app.getByTestId('fixture-grid');
    const at = (row: number, col: string) => grid.locator(`.ag-row[row-id="${row}"] [col-id="${col}"]`);
    const type = async (row: number, col: string, text: string) => {
      await at(row, col).dblclick();
      await at(row, col).locator('input').fill(text);
      await at(row, col).locator('input').press('Enter');
    };
    const notice = app.getByTestId('fixture-notice');
    await type(0, 'current_stock', '"7"');
    await expect(notice).toContainText('current_stock is a whole number ≥ 0');
    await type(0, 'current_stock', '12.5');
    await expect(notice).toContainText('whole number');
    await type(0, 'current_stock', '-3');
    await expect(notice).toContainText('must be ≥ 0');
    await type(1, 'product_id', 'SKU-001');
    await expect(notice).toContainText('already used by record 1');
    await expect(at(0, 'current_stock')).toHaveClass(/cell-invalid/);
    expect(
      (await cliCall<{ row: { version: number } }>(server.workspace, 'tasks.get', { taskId: T019 })).row.version,
    ).toBe(1);

    await type(0, 'current_stock', '7');
    // The edit is accepted and re-validated: valid (T019zh's wrong_order rule is re-read from the edited products,
    // SKU-001 still below its threshold).
    await expect(notice).toContainText('version 2, validation: valid');
    await expect(app.getByTestId('validation-status')).toHaveText('valid');
    const rows = await cliCall<Rows>(server.workspace, 'tasks.fixtureRows', { taskId: T019, service: 'inventory' });
    expect(rows.rows[0]!.current_stock).toBe('7');

    await app.getByRole('heading', { name: 'Prompt' }).click();
    await app.keyboard.press('Control+z');
    await expect(notice).toContainText('Undid edit of record 1 · current_stock');
    await expect(at(0, 'current_stock')).toHaveText('3');

    const versions = app.getByTestId('task-versions');
    await expect(versions.getByTestId('version-3')).toBeVisible();
    await versions.getByTestId('version-2').getByRole('button', { name: 'changes' }).click();
    await expect(app.getByTestId('version-diff')).toContainText('record 1 (SKU-001) · current_stock: 3 → 7');
    await versions.getByTestId('revert-2').click();
    await expect(versions.getByTestId('version-4')).toContainText('revert to version 2');
    await expect(at(0, 'current_stock')).toHaveText('7');
    // Every version's validation round is kept.
    await expect(app.getByTestId('task-validation')).toContainText('Version 4 · round 1: valid');
    await expect(app.getByTestId('task-validation')).toContainText('Version 2 · round 1: valid');
  });
});
