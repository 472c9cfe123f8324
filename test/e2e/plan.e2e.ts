import { cell, cliCall, docsShot, editCell, expect, pasteText, test } from './fixtures';

type Slot = { id: number; family: string; target_count: number; category: string; services: string[] };
type Page = { rows: Slot[]; total: number };

test('the plan grid loads the demo plan from the workspace', async ({ app }, testInfo) => {
  await expect(app.getByTestId('status-rows')).toHaveText('26 rows');
  await expect(app.getByTestId('plan-stats')).toContainText('26 slots');
  await expect(app.getByTestId('plan-stats')).toContainText('13 services');
  await expect(cell(app, 1, 'family')).toHaveText('email-triage');
  await app.screenshot({ path: testInfo.outputPath('coverage-plan.png') });
  await testInfo.attach('coverage-plan', { path: testInfo.outputPath('coverage-plan.png'), contentType: 'image/png' });
  await docsShot(app, 'screenshot.png'); // the README's plan picture
});

test('the plan stats are asked after the first rows arrive, so their sums never delay the rows', async ({ app }) => {
  await expect(app.getByTestId('plan-stats')).toContainText('26 slots'); // the first load's calls are over
  const order: string[] = [];
  const note = (what: string) => (r: { url(): string }) => {
    const m = /\/rpc\/(plan\.(?:list|stats))$/.exec(r.url());
    if (m) order.push(`${what} ${m[1]}`);
  };
  app.on('request', note('ask'));
  app.on('requestfinished', note('got'));
  await app.reload();
  await expect(app.getByTestId('plan-stats')).toContainText('26 slots');
  expect(order.slice(0, 3)).toEqual(['ask plan.list', 'got plan.list', 'ask plan.stats']);
});

test("the coverage map's chart code (echarts) loads when the map is opened, not with the plan page", async ({
  app,
}) => {
  const scripts: string[] = [];
  app.on('request', (r) => {
    if (r.resourceType() === 'script' || r.url().endsWith('.js')) scripts.push(r.url());
  });
  await app.reload();
  await expect(app.getByTestId('plan-stats')).toContainText('26 slots');
  const withPage = scripts.length;
  expect(withPage, 'the page itself loads its scripts').toBeGreaterThan(0);
  await app.getByTestId('toggle-coverage').click();
  await expect(app.getByTestId('heatmap-services').locator('canvas').first()).toBeVisible();
  const withMap = scripts.slice(withPage);
  expect(
    withMap.some((u) => /CoverageHeatmap/.test(u)),
    `scripts loaded by opening the map: ${withMap}`,
  ).toBe(true);
  expect(scripts.slice(0, withPage).some((u) => /CoverageHeatmap/.test(u))).toBe(false);
});

test('a cell edit is saved and survives a reload', async ({ app, server }) => {
  await editCell(app, 3, 'target_count', '42');
  await expect(app.getByTestId('plan-notice')).toContainText('Saved target_count of slot 3');
  expect((await cliCall<Slot>(server.workspace, 'plan.get', { id: 3 })).target_count).toBe(42);
  await app.reload();
  await expect(cell(app, 3, 'target_count')).toHaveText('42');
});

test('an invalid value is rejected at the cell and nothing is written', async ({ app, server }) => {
  await editCell(app, 2, 'target_count', '-5');
  await expect(app.getByTestId('plan-notice')).toContainText('must be ≥ 0');
  await expect(app.getByTestId('plan-notice')).toContainText('nothing was written');
  await expect(cell(app, 2, 'target_count')).toHaveClass(/cell-invalid/);
  await expect(cell(app, 2, 'target_count')).toHaveText('12');
  await editCell(app, 2, 'services', 'gmail, fax');
  await expect(app.getByTestId('plan-notice')).toContainText('unknown service');
  const slot = await cliCall<Slot>(server.workspace, 'plan.get', { id: 2 });
  expect(slot.target_count).toBe(12);
  expect(slot.services).toEqual(['gmail']);
});

test('a pasted TSV block with a header becomes new rows; a bad block writes nothing', async ({ app, server }) => {
  const tsv = [
    'family\tservices\tcategory\tdifficulty\tlanguage\treference_date\tscenario\ttarget_count\tnotes',
    'pasted-a\tcrm, gmail\tworkflow\thard\ten\t2026-06-01\tcross_service\t5\tfrom a sheet',
    'pasted-b\tkb\tknowledge\teasy\tzh\t2026-06-02\tsingle_service\t3\t"two\tcells"',
  ].join('\n');
  await cell(app, 1, 'family').click();
  await pasteText(app, tsv);
  await expect(app.getByTestId('plan-notice')).toContainText('2 new');
  await expect(app.getByTestId('status-rows')).toHaveText('28 rows');
  const found = await cliCall<Page>(server.workspace, 'plan.list', {
    filters: [{ field: 'family', conditions: [{ op: 'startsWith', value: 'pasted-' }] }],
  });
  expect(found.rows.map((r) => [r.family, r.services])).toEqual([
    ['pasted-a', ['gmail', 'crm']],
    ['pasted-b', ['kb']],
  ]);

  await pasteText(app, tsv.replace('2026-06-02', '2026-02-30'));
  await expect(app.getByTestId('plan-notice')).toContainText('nothing was written');
  expect((await cliCall<Page>(server.workspace, 'plan.list', {})).total).toBe(28);
});

test('a positional paste fills cells from the focused cell down', async ({ app, server }) => {
  await cell(app, 4, 'category').click();
  await pasteText(app, 'ops\thard\nops\tmedium');
  await expect(app.getByTestId('plan-notice')).toContainText('2 updated');
  const [a, b] = await Promise.all(
    [4, 5].map((id) => cliCall<Slot & { difficulty: string }>(server.workspace, 'plan.get', { id })),
  );
  expect([a!.category, a!.difficulty, b!.category, b!.difficulty]).toEqual(['ops', 'hard', 'ops', 'medium']);
});

test('an edit made through the CLI shows up live', async ({ app, server }) => {
  await cliCall(server.workspace, 'plan.update', { edits: [{ id: 6, field: 'family', value: 'edited-from-cli' }] });
  await expect(cell(app, 6, 'family')).toHaveText('edited-from-cli');
  await cliCall(server.workspace, 'plan.create', {
    rows: [
      {
        family: 'cli-row',
        services: ['rss'],
        category: 'content',
        difficulty: 'easy',
        language: 'en',
        reference_date: '2026-07-01',
        scenario: 'single_service',
      },
    ],
  });
  await expect(app.getByTestId('status-rows')).toHaveText('27 rows');
});

test('Ctrl+Z undoes the last edits in order', async ({ app, server }) => {
  await editCell(app, 7, 'category', 'first');
  await expect(app.getByTestId('plan-notice')).toContainText('Saved');
  await editCell(app, 7, 'category', 'second');
  await expect(cell(app, 7, 'category')).toHaveText('second');
  await cell(app, 8, 'family').click();
  await app.keyboard.press('Control+z');
  await expect(cell(app, 7, 'category')).toHaveText('first');
  await app.keyboard.press('Control+z');
  await expect(cell(app, 7, 'category')).toHaveText('communication');
  expect((await cliCall<Slot>(server.workspace, 'plan.get', { id: 7 })).category).toBe('communication');
});

test('selected rows copy as TSV, fill down writes the focused value, delete is undoable', async ({ app, server }) => {
  for (const id of [10, 11, 12]) await app.locator(`.ag-row[row-id="${id}"] input[type=checkbox]`).check();
  const copied = await app.locator('[data-testid=plan-grid]').evaluate((el) => {
    const dt = new DataTransfer();
    el.querySelector('.ag-cell')!.dispatchEvent(
      new ClipboardEvent('copy', { clipboardData: dt, bubbles: true, cancelable: true }),
    );
    return dt.getData('text/plain');
  });
  const lines = copied.split('\n');
  expect(lines[0]).toBe(
    'id\tfamily\tservices\tcategory\tdifficulty\tlanguage\treference_date\tscenario\ttarget_count\tnotes',
  );
  expect(lines.slice(1).map((l) => l.split('\t')[0])).toEqual(['10', '11', '12']);

  await cell(app, 10, 'scenario').click();
  await app.keyboard.press('Control+d');
  await expect(app.getByTestId('plan-notice')).toContainText('Filled 2 cell(s)');
  await expect(cell(app, 12, 'scenario')).toHaveText('single_service');

  await app.getByTestId('delete-slots').click();
  await expect(app.getByTestId('status-rows')).toHaveText('23 rows');
  await app.getByTestId('undo').click();
  await expect(app.getByTestId('status-rows')).toHaveText('26 rows');
  expect((await cliCall<Slot>(server.workspace, 'plan.get', { id: 11 })).family).toBe('kb-search');
});

test('Generate grid runs a worker job and the rows arrive live', async ({ app, server }) => {
  await app.getByRole('button', { name: 'Generate grid…' }).click();
  await expect(app.getByTestId('grid-size')).toHaveText('48 slots');
  await app.getByRole('button', { name: 'Start' }).click();
  await expect(app.getByTestId('job-progress')).toContainText('done');
  await app.getByRole('button', { name: 'Close' }).click();
  await expect(app.getByTestId('status-rows')).toHaveText('74 rows');
  expect((await cliCall<Page>(server.workspace, 'plan.list', { limit: 1 })).total).toBe(74);
  await app.getByRole('button', { name: 'Jobs' }).click();
  await expect(app.getByRole('cell', { name: 'done' })).toBeVisible();
});
