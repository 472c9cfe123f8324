import { CLAW_ROOT, FULL_DATA } from '../helpers/shared-data';
import { cliCall, expect, test } from './fixtures';

type Detail = { row: { version: number } };
type FixtureRows = { rows: Record<string, string>[] };

test.describe('Tasks page', () => {
  // The grid shows all 44 tasks T001–T044.
  test.skip(!FULL_DATA, 'needs the full corpora (../shared or COWORKENV_SHARED), not the shipped subset');

  test('imports the Claw-Eval corpus, shows a task and edits a fixture cell as a new version', async ({
    app,
    server,
  }, testInfo) => {
    await app.getByRole('button', { name: 'Tasks' }).click();
    await app.getByLabel('Import path').fill(CLAW_ROOT);
    await app.getByRole('button', { name: 'Import' }).click();
    await expect(app.getByTestId('tasks-notice')).toContainText('44 imported');
    await expect(app.getByTestId('status-rows')).toHaveText('44 tasks');

    await app.locator('.ag-row[row-id="T019zh_inventory_check"]').click();
    const detail = app.getByTestId('task-detail');
    await expect(detail.getByRole('heading', { name: 'T019zh_inventory_check' })).toBeVisible();
    await expect(app.getByTestId('task-prompt')).not.toBeEmpty();
    await expect(detail.getByText('inventory_list_products').first()).toBeVisible();
    await expect(app.getByTestId('checks-derived')).toContainText('Checks derived from task.yaml');

    // A valid edit: a product's name.
    const nameCell = app.locator('[data-testid=fixture-grid] .ag-row[row-id="0"] [col-id="name"]');
    await nameCell.dblclick();
    await app.locator('[data-testid=fixture-grid] .ag-row[row-id="0"] [col-id="name"] input').fill('Edited product');
    await app.keyboard.press('Enter');
    await expect(app.getByTestId('fixture-notice')).toContainText('version 2, validation: valid');
    await expect(nameCell).toHaveText('Edited product');
    const rows = await cliCall<FixtureRows>(server.workspace, 'tasks.fixtureRows', {
      taskId: 'T019zh_inventory_check',
      service: 'inventory',
    });
    expect(rows.rows[0]!.name).toBe('"Edited product"');

    // An invalid edit: a number cell given text that is not JSON is refused at the cell; nothing is saved.
    const idCell = app.locator('[data-testid=fixture-grid] .ag-row[row-id="1"] [col-id="current_stock"]');
    const before = await idCell.textContent();
    await idCell.dblclick();
    await app.locator('[data-testid=fixture-grid] .ag-row[row-id="1"] [col-id="current_stock"] input').fill('lots');
    await app.keyboard.press('Enter');
    await expect(app.getByTestId('fixture-notice')).toContainText('nothing was saved');
    await expect(idCell).toHaveText(before!);
    expect(
      (await cliCall<Detail>(server.workspace, 'tasks.get', { taskId: 'T019zh_inventory_check' })).row.version,
    ).toBe(2);
    await app.screenshot({ path: testInfo.outputPath('tasks.png') });
  });

  test('sorts and filters tasks in SQL', async ({ app, server }) => {
    await cliCall(server.workspace, 'tasks.import', { paths: [CLAW_ROOT] });
    await app.getByRole('button', { name: 'Tasks' }).click();
    await expect(app.getByTestId('status-rows')).toHaveText('44 tasks');
    await app.locator('.ag-header-cell[col-id="task_id"]').click(); // asc → desc
    await expect(app.locator('.ag-row[row-index="0"] [col-id="task_id"]')).toHaveText('T044_service_outage_research');
    await expect(app.locator('.ag-row[row-index="0"] [col-id="checks_origin"]')).toHaveText('derived from task.yaml');
  });

  test('validates selected tasks as a job and shows each verdict', async ({ app, server }) => {
    await cliCall(server.workspace, 'tasks.import', { paths: [CLAW_ROOT] });
    await app.getByRole('button', { name: 'Tasks' }).click();
    await expect(app.getByTestId('status-rows')).toHaveText('44 tasks');
    await app.locator('.ag-header-cell[col-id="task_id"]').click(); // newest ids first: T044, T043, T042, T041zh…
    await expect(app.locator('.ag-row[row-index="0"] [col-id="task_id"]')).toHaveText('T044_service_outage_research');
    for (const id of ['T043zh_service_outage_research', 'T041zh_scheduled_task_management'])
      await app.locator(`.ag-row[row-id="${id}"] input[type=checkbox]`).check();
    await app.getByTestId('validate-selected').click();
    await expect(app.getByTestId('validation-progress')).toContainText('done: 2/2');
    const row = (id: string, col: string) => app.locator(`.ag-row[row-id="${id}"] [col-id="${col}"]`);
    await expect(row('T041zh_scheduled_task_management', 'validation_status')).toHaveText('invalid');
    await expect(row('T041zh_scheduled_task_management', 'failed_validator')).toHaveText('tool_constraints');
    await expect(row('T043zh_service_outage_research', 'validation_status')).toHaveText('valid');
    await expect(row('T044_service_outage_research', 'validation_status')).toHaveText('unvalidated');

    await row('T041zh_scheduled_task_management', 'name').click();
    await expect(app.getByTestId('validation-status')).toHaveText('invalid');
    await expect(app.getByTestId('verdict-tool_constraints')).toContainText('gmail.sent');
    // Imports have no reference plan: the plan-dependent validators are not applicable, never "pass".
    await expect(app.getByTestId('verdict-grading_consistency')).toContainText('not applicable');
  });
});
