import { cell, cliCall, docsShot, editCell, expect, pasteText, test } from './fixtures';

type Slot = { id: number; family: string; category: string; difficulty: string; target_count: number };
type Page = { rows: Slot[]; total: number };

const header = (app: import('@playwright/test').Page, col: string) => app.locator(`.ag-header-cell[col-id="${col}"]`);
const openFilter = async (app: import('@playwright/test').Page, col: string) =>
  header(app, col).locator('.ag-header-cell-filter-button').click();
const copyFromGrid = (app: import('@playwright/test').Page) =>
  app.locator('[data-testid=plan-grid]').evaluate((el) => {
    const dt = new DataTransfer();
    (el.querySelector('.ag-cell-focus') ?? el).dispatchEvent(
      new ClipboardEvent('copy', { clipboardData: dt, bubbles: true, cancelable: true }),
    );
    return dt.getData('text/plain');
  });

test('difficulty sorts by its declared order, not as text (bug 3)', async ({ app }) => {
  await header(app, 'difficulty').click();
  // Waits for the sorted block (read at once, a busy machine could still show the unsorted rows).
  await expect(app.locator('.ag-row[row-index="0"] [col-id="difficulty"]')).toHaveText('easy');
  await expect(app.locator('.ag-row[row-index="25"] [col-id="difficulty"]')).toHaveText('hard');
  await header(app, 'difficulty').click();
  await expect(app.locator('.ag-row[row-index="0"] [col-id="difficulty"]')).toHaveText('hard');
});

test('the services set filter lists values with counts and finds gmail (bug 4); stats and status follow', async ({
  app,
}) => {
  await openFilter(app, 'services');
  const f = app.getByTestId('set-filter-services');
  await expect(f.getByText('gmail')).toBeVisible();
  await f.getByLabel('Search values').fill('gmail');
  await f.getByRole('button', { name: 'Only these' }).click();
  await app.keyboard.press('Escape');
  await expect(app.getByTestId('status-rows')).toHaveText(/^\d+ of 26 rows \(filtered\)$/);
  const shown = Number((await app.getByTestId('status-rows').textContent())!.split(' ')[0]);
  expect(shown).toBeGreaterThan(0);
  for (const t of await app.locator('.ag-row [col-id="services"]').allTextContents()) expect(t).toContain('gmail');
  await expect(app.getByTestId('plan-stats')).toContainText(`Filtered: ${shown} slots`);
});

test('Ctrl+Z works without a focused cell, and never overwrites another writer (bugs 5, 6)', async ({
  app,
  server,
}) => {
  await editCell(app, 7, 'category', 'mine');
  await expect(app.getByTestId('plan-notice')).toContainText('Saved');
  await app.getByRole('heading', { name: 'Coverage plan' }).click(); // focus leaves the grid
  await app.keyboard.press('Control+z');
  await expect(cell(app, 7, 'category')).toHaveText('communication');

  await editCell(app, 8, 'category', 'mine');
  await expect(app.getByTestId('plan-notice')).toContainText('Saved');
  await cliCall(server.workspace, 'plan.update', { edits: [{ id: 8, field: 'category', value: 'theirs' }] });
  await expect(cell(app, 8, 'category')).toHaveText('theirs');
  await app.getByTestId('undo').click();
  await expect(app.getByTestId('plan-notice')).toContainText('changed by another writer since were left as they are');
  expect((await cliCall<Slot>(server.workspace, 'plan.get', { id: 8 })).category).toBe('theirs');
});

test('typing into a dropdown cell picks the matching value (bug 6)', async ({ app, server }) => {
  await cell(app, 3, 'difficulty').click();
  await app.keyboard.press('h');
  await expect(app.locator('.select-editor input')).toHaveValue('h');
  await app.keyboard.press('Enter');
  await expect(cell(app, 3, 'difficulty')).toHaveText('hard');
  await expect.poll(async () => (await cliCall<Slot>(server.workspace, 'plan.get', { id: 3 })).difficulty).toBe('hard');
});

test('the Generate grid dialog closes on Esc and keeps Tab inside (bug 6)', async ({ app }) => {
  await app.getByRole('button', { name: 'Generate grid…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Generate grid' });
  await expect(dialog).toBeVisible();
  for (let i = 0; i < 25; i++) await app.keyboard.press('Tab');
  expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await app.keyboard.press('Shift+Tab');
  expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await app.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a pasted header with an unknown column maps the known ones, names it; errors give 1-based rows (bug 6)', async ({
  app,
  server,
}) => {
  await cell(app, 1, 'family').click();
  await pasteText(app, ['family\tOwner\ttarget_count', 'p-a\tana\t2', 'p-b\tbo\t3'].join('\n'));
  // No id column: the block updates the focused row and the one below (issue 21 item 10: it used to add new rows).
  await expect(app.getByTestId('plan-notice')).toContainText('Pasted 2 row(s): 0 new, 2 updated');
  await expect(app.getByTestId('plan-notice')).toContainText('“Owner” (column 2)');
  const second = (await app.locator('.ag-row[row-index="1"]').first().getAttribute('row-id'))!;
  await expect(cell(app, 1, 'family')).toHaveText('p-a');
  await expect(cell(app, Number(second), 'family')).toHaveText('p-b');
  await expect(cell(app, 1, 'target_count')).toHaveText('2');
  // A blank id is a new slot: this one is incomplete, so the paste is refused, naming the sheet's row (1-based).
  await pasteText(app, 'id\tfamily\ttarget_count\tOwner\n\tp-z\t1\tzed');
  await expect(app.getByTestId('plan-notice')).toContainText('row 2');
  await expect(app.getByTestId('plan-notice')).toContainText('nothing was written');
  const full =
    'id\tfamily\tservices\tcategory\tdifficulty\tlanguage\treference_date\tscenario\tOwner\n' +
    '\tp-c\tkb\tknowledge\teasy\ten\t2026-06-01\tsingle_service\tana';
  await pasteText(app, full);
  await expect(app.getByTestId('plan-notice')).toContainText('1 new');
  await expect(app.getByTestId('plan-notice')).toContainText('skipped unknown column “Owner” (column 9)');
  const found = await cliCall<Page>(server.workspace, 'plan.list', {
    filters: [{ field: 'family', conditions: [{ op: 'equals', value: 'p-c' }] }],
  });
  expect(found.total).toBe(1);
});

test('editing a row another process deleted says so (bug 6)', async ({ app, server }) => {
  await expect(cell(app, 9, 'family')).toHaveText('meeting-notes');
  await cell(app, 9, 'family').dblclick();
  await cliCall(server.workspace, 'plan.delete', { ids: [9] });
  const input = app.locator('.ag-row[row-id="9"] [col-id="family"] input');
  await input.fill('too late');
  await input.press('Enter');
  await expect(app.getByTestId('plan-notice')).toContainText('slot 9 was deleted by another writer');
});

test('notices never push the grid down (bug 6)', async ({ app }) => {
  const before = await app.getByTestId('plan-grid').boundingBox();
  await editCell(app, 2, 'target_count', '-5');
  await expect(app.getByTestId('plan-notice')).toContainText('must be ≥ 0');
  const after = await app.getByTestId('plan-grid').boundingBox();
  expect(after!.y).toBe(before!.y);
  expect(after!.height).toBe(before!.height);
});

test('range selection: drag, Shift+arrows, copy as TSV, Ctrl+A, fill down over the range, Enter moves down', async ({
  app,
  server,
}) => {
  await cell(app, 1, 'category').hover();
  await app.mouse.down();
  await cell(app, 3, 'difficulty').hover();
  await app.mouse.up();
  await expect(app.getByTestId('status-cells')).toHaveText('6 cells');
  await expect(app.locator('.cell-in-range')).toHaveCount(6);
  expect(await copyFromGrid(app)).toBe('communication\teasy\ncommunication\teasy\nproductivity\tmedium');

  await cell(app, 4, 'family').click();
  await app.keyboard.press('Shift+ArrowDown');
  // Each key lands before the next: under load the grid could take the second before it applied the first.
  await expect(app.getByTestId('status-cells')).toHaveText('2 cells');
  await app.keyboard.press('Shift+ArrowRight');
  await expect(app.getByTestId('status-cells')).toHaveText('4 cells');

  // Fill down over a range: the top row's values go into the rows below it.
  await cell(app, 5, 'category').click();
  await app.keyboard.press('Shift+ArrowDown');
  await app.keyboard.press('Shift+ArrowDown');
  await app.keyboard.press('Control+d');
  await expect(app.getByTestId('plan-notice')).toContainText('Filled 2 cell(s)');
  await expect(cell(app, 7, 'category')).toHaveText('productivity');

  await cell(app, 10, 'family').click();
  await app.keyboard.press('Enter');
  await expect(cell(app, 11, 'family')).toHaveClass(/ag-cell-focus/);

  await app.keyboard.press('Control+a');
  await expect(app.getByTestId('status-cells')).toHaveText(/^\d{3} cells$/);
  expect((await cliCall<Slot>(server.workspace, 'plan.get', { id: 6 })).category).toBe('productivity');
});

test('select all matching the filter, delete by filter with its count, undo puts them back', async ({
  app,
  server,
}) => {
  await app.getByLabel('Quick search').fill('kb-search');
  await expect(app.getByTestId('status-rows')).toHaveText('2 of 26 rows (filtered)');
  await app.getByTestId('select-matching').click();
  await expect(app.getByTestId('status-selected')).toHaveText('2 selected');
  app.once('dialog', (d) => {
    expect(d.message()).toContain('Delete the 2 slot(s) matching the filter?');
    void d.accept();
  });
  await app.getByTestId('delete-matching').click();
  await expect(app.getByTestId('plan-notice')).toContainText('Deleted 2 slot(s) matching the filter');
  expect((await cliCall<Page>(server.workspace, 'plan.list', {})).total).toBe(24);
  await app.keyboard.press('Control+z');
  await expect(app.getByTestId('plan-notice')).toContainText('Undid delete of 2 matching slot(s)');
  expect((await cliCall<Page>(server.workspace, 'plan.list', {})).total).toBe(26);
});

test('pinned id/family, hidden columns, sort, filter, search and widths survive a reload; each page has a URL', async ({
  app,
}) => {
  await expect(app.locator('.ag-grid-pinned-left-cells [col-id="family"]').first()).toBeVisible();
  await app.getByTestId('columns-menu').click();
  await app.getByRole('menu').getByLabel('Notes').uncheck();
  await app.getByRole('menu').getByRole('button', { name: 'Close' }).click();
  await header(app, 'target_count').click();
  await app.getByLabel('Quick search').fill('email');
  await expect(app.getByTestId('status-rows')).toHaveText(/of 26 rows \(filtered\)/);
  const status = await app.getByTestId('status-rows').textContent();
  // The reload must find the grid's saved state; ag-grid reports it a moment after a change, so wait for the state
  // itself (not for 400 ms, which a busy machine may outlast).
  const saved = () =>
    app.evaluate(() =>
      Object.keys(localStorage)
        .filter((k) => k.startsWith('coworkenv.grid:'))
        .map((k) => JSON.parse(localStorage.getItem(k) ?? '{}') as unknown),
    );
  await expect.poll(saved).toContainEqual(
    expect.objectContaining({
      quick: 'email',
      grid: expect.objectContaining({
        sort: { sortModel: [expect.objectContaining({ colId: 'target_count', sort: 'asc' })] },
        columnVisibility: { hiddenColIds: expect.arrayContaining(['notes']) },
      }),
    }),
  );
  await app.reload();
  await expect(app.getByTestId('status-rows')).toHaveText(status!);
  await expect(app.getByLabel('Quick search')).toHaveValue('email');
  await expect(header(app, 'notes')).toHaveCount(0);
  await expect(header(app, 'target_count')).toHaveAttribute('aria-sort', 'ascending');

  await app.getByRole('button', { name: 'Jobs' }).click();
  await expect(app).toHaveURL(/#\/jobs$/);
  await app.goBack();
  await expect(app).toHaveURL(/#\/plan$/);
  await expect(app.getByRole('heading', { name: 'Coverage plan' })).toBeVisible();
});

test('an empty plan says what to do; the Workspace page counts everything and refreshes', async ({ app, server }) => {
  await app.getByLabel('Quick search').fill('nothing-matches-this');
  await expect(app.getByTestId('empty-state')).toContainText('No slot matches the filter');
  await app.getByTestId('empty-state').getByRole('button', { name: 'Clear filters' }).click();
  await expect(app.getByTestId('status-rows')).toHaveText('26 rows');

  await app.getByRole('button', { name: 'Workspace' }).click();
  await expect(app.getByTestId('workspace-counts')).toContainText('26 slots · 0 tasks');
  await docsShot(app, 'workspace.png');
  await cliCall(server.workspace, 'plan.delete', { ids: [1, 2] });
  await expect(app.getByTestId('workspace-counts')).toContainText('24 slots');
  await cliCall(server.workspace, 'plan.deleteWhere', { quick: 'e' });
  await app.getByRole('button', { name: 'Coverage plan' }).click();
  await expect(app.getByTestId('empty-state')).toContainText('The plan is empty');
});

test('the Jobs page shows parameters, duration and a link to the result', async ({ app }) => {
  await app.getByRole('button', { name: 'Generate grid…' }).click();
  await app.getByRole('button', { name: 'Start' }).click();
  await expect(app.getByTestId('job-progress')).toContainText('done');
  await app.keyboard.press('Escape');
  await app.getByRole('button', { name: 'Jobs' }).click();
  const table = app.getByTestId('jobs-table');
  await expect(table).toContainText('plan.generateGrid');
  await expect(table).toContainText('categories: communication, productivity');
  await expect(table).toContainText(/\d+ s/);
  await docsShot(app, 'jobs.png');
  await table.getByRole('button', { name: /48 slots added → plan/ }).click();
  await expect(app).toHaveURL(/#\/plan$/);
});

test('Chinese text declares a CJK font fallback', async ({ app }) => {
  const family = await app.evaluate(() => getComputedStyle(document.querySelector('.ag-root-wrapper')!).fontFamily);
  expect(family).toMatch(/PingFang SC/);
  expect(family).toMatch(/Noto Sans CJK SC/);
});
