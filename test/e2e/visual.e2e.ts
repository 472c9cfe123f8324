import type { Locator, Page } from '@playwright/test';
import { cell, cliCall, editCell, expect, test } from './fixtures';

// Issue 21 item 10: what the app looks like at the size it is used at (1440×900), not at the suite's default.
test.use({ viewport: { width: 1440, height: 900 } });

/** The element's box lies inside the window (the page needs no scrolling to show it). */
async function expectInViewport(app: Page, el: Locator, what: string) {
  const box = await el.boundingBox();
  const vp = app.viewportSize()!;
  expect(box, `${what} is rendered`).not.toBeNull();
  expect(box!.x, `${what} left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.y, `${what} top edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what} right edge`).toBeLessThanOrEqual(vp.width);
  expect(box!.y + box!.height, `${what} bottom edge`).toBeLessThanOrEqual(vp.height);
}

test('the coverage map labels every one of the 13 service rows', async ({ app }) => {
  await app.getByTestId('toggle-coverage').click();
  const map = app.getByTestId('heatmap-services');
  // The labels echarts decided to draw (its own axis layout, read back after each render).
  await expect(map).toHaveAttribute('data-row-labels', /.+/);
  const drawn = JSON.parse((await map.getAttribute('data-row-labels'))!) as string[];
  expect(drawn).toHaveLength(13);
  expect(await map.getAttribute('data-label-interval')).toBe('0');
});

test('Target, Generated and Valid are on screen at 1440 px without scrolling the grid', async ({ app }) => {
  await expect(cell(app, 1, 'family')).toHaveText('email-triage');
  for (const col of ['target_count', 'generated', 'valid']) {
    const header = app.locator(`[data-testid=plan-grid] .ag-header-cell[col-id="${col}"]`);
    await expectInViewport(app, header, `${col} header`);
    await expect(header).toBeVisible();
  }
});

test('error notices clear: on the next success, with their close button, and on navigation', async ({
  app,
  server,
}) => {
  // Plan: a rejected cell value leaves an error in the status bar; leaving the page clears it.
  await editCell(app, 2, 'target_count', '-5');
  await expect(app.getByTestId('plan-notice')).toContainText('must be ≥ 0');
  await app.getByRole('button', { name: 'Tasks' }).click();
  await expect(app.getByRole('heading', { name: 'Tasks' })).toBeVisible();
  await app.getByRole('button', { name: 'Coverage plan' }).click();
  await expect(cell(app, 1, 'family')).toHaveText('email-triage');
  await expect(app.getByTestId('plan-notice')).toHaveText('');

  // Settings: a failed removal shows an error; the same removal succeeding next takes it away.
  for (const name of ['first', 'second'])
    await cliCall(server.workspace, 'endpoints.add', {
      name,
      base_url: 'http://127.0.0.1:9/v1',
      model: 'm',
      key_source: 'env',
    });
  await app.getByRole('button', { name: 'Settings' }).click();
  app.on('dialog', (d) => void d.accept());
  // The core answers one removal with an error (as it would for a locked workspace), the next one normally.
  let fail = true;
  const refusal = { ok: false, error: { code: 'CONFLICT', message: 'the workspace is busy' } };
  await app.route('**/rpc/endpoints.remove', (r) =>
    fail ? ((fail = false), r.fulfill({ json: refusal })) : r.continue(),
  );
  await app.getByTestId('endpoint-first').getByRole('button', { name: 'Remove' }).click();
  const alert = app.getByRole('alert');
  await expect(alert).toContainText('the workspace is busy');
  await app.getByTestId('endpoint-first').getByRole('button', { name: 'Remove' }).click();
  await expect(app.getByTestId('endpoint-first')).toBeHidden();
  await expect(alert).toBeHidden();

  // …and the close button dismisses one.
  fail = true;
  await app.getByTestId('endpoint-second').getByRole('button', { name: 'Remove' }).click();
  await expect(alert).toContainText('the workspace is busy');
  await alert.getByRole('button', { name: 'dismiss' }).click();
  await expect(alert).toBeHidden();
});

async function expectDialogFits(app: Page, dialog: Locator, what: string) {
  const box = dialog.locator('.dialog');
  await expectInViewport(app, box, `${what} dialog`);
  // Nothing sticks out sideways (no horizontal scroll bar inside the dialog).
  const wide = await box.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(wide, `${what}: content wider than the dialog`).toBeLessThanOrEqual(0);
  for (const b of await dialog.locator('.dialog-actions button').all())
    await expectInViewport(app, b, `${what}: button ${await b.textContent()}`);
}

for (const height of [900, 520])
  test(`the Generate grid, Generate tasks and endpoint dialogs fit a 1440×${height} window`, async ({ app }) => {
    await app.setViewportSize({ width: 1440, height });
    await expect(cell(app, 1, 'family')).toHaveText('email-triage');
    await app.getByRole('button', { name: 'Generate grid…' }).click();
    await expectDialogFits(app, app.getByRole('dialog', { name: 'Generate grid' }), 'Generate grid');
    await app.keyboard.press('Escape');
    await app.getByTestId('generate-below').click();
    await expectDialogFits(app, app.getByRole('dialog', { name: 'Generate tasks' }), 'Generate tasks');
    await app.keyboard.press('Escape');
    await app.getByRole('button', { name: 'Settings' }).click();
    await app.getByRole('button', { name: 'Add endpoint' }).click();
    await expectDialogFits(app, app.getByRole('dialog', { name: 'Add endpoint' }), 'Add endpoint');
  });

/** Where each toolbar control and the grid are. */
const layout = (app: Page) =>
  app.evaluate(() => {
    const bar = document.querySelector('[role=toolbar]')!;
    const at = (el: Element) => {
      const r = el.getBoundingClientRect();
      return [Math.round(r.x), Math.round(r.y), Math.round(r.width)];
    };
    const grid = document.querySelector('[data-testid=plan-grid]')!;
    return { bar: at(bar), controls: [...bar.children].map(at), gridTop: at(grid)[1] };
  });

test('the plan toolbar does not move when a selection, an undo entry or a filter appears', async ({ app }) => {
  await expect(app.getByTestId('plan-stats')).toContainText('26 slots');
  const before = await layout(app);
  await app.locator('.ag-row[row-id="1"] .ag-selection-checkbox input').first().check();
  await app.locator('.ag-row[row-id="2"] .ag-selection-checkbox input').first().check();
  await expect(app.getByTestId('status-selected')).toHaveText('2 selected');
  await editCell(app, 3, 'notes', 'a note long enough to make a long undo label');
  await expect(app.getByTestId('undo')).toBeEnabled();
  await app.getByPlaceholder('Search family').fill('email');
  await expect(app.getByTestId('status-rows')).toContainText('(filtered)');
  expect(await layout(app)).toEqual(before);
});

async function generateGrid(app: Page) {
  await app.getByRole('button', { name: 'Generate grid…' }).click();
  await expect(app.getByTestId('grid-size')).toHaveText('48 slots');
  await app.getByRole('button', { name: 'Start' }).click();
  await expect(app.getByTestId('job-progress')).toContainText('done');
  await app.getByRole('button', { name: 'Close' }).click();
}

test('a grid-generation job is undone from the plan, unless its slots were edited since', async ({ app, server }) => {
  await generateGrid(app);
  await expect(app.getByTestId('status-rows')).toHaveText('74 rows');
  await app.getByTestId('undo').click();
  await expect(app.getByTestId('plan-notice')).toContainText('Undid generate grid (48 slots) — removed 48 slot(s)');
  await expect(app.getByTestId('status-rows')).toHaveText('26 rows');

  await generateGrid(app);
  await expect(app.getByTestId('status-rows')).toHaveText('74 rows');
  // Another writer edits one of the grid's slots: undoing would drop that edit, so the core refuses.
  await cliCall(server.workspace, 'plan.update', { edits: [{ id: 74, field: 'notes', value: 'keep me' }] });
  await app.getByTestId('undo').click();
  await expect(app.getByTestId('plan-notice')).toContainText("1 of the grid's 48 slot(s) were edited since");
  await expect(app.getByTestId('status-rows')).toHaveText('74 rows');
  await expect(app.getByTestId('undo')).toBeEnabled(); // the refused entry stays on the stack
});
