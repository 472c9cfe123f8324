import { cell, cliCall, expect, test } from './fixtures';

type Cell = { row: string; col: string; slots: number; planned: number; valid: number };
type Coverage = { servicesByCategory: Cell[]; difficultyByLanguage: Cell[] };

test('generate for the demo plan: the job runs with progress, the grid counts and the heat maps fill', async ({
  app,
  server,
}, testInfo) => {
  await app.getByTestId('toggle-coverage').click();
  const services = app.getByTestId('heatmap-services');
  const difficulty = app.getByTestId('heatmap-difficulty');
  await expect(services.locator('canvas').first()).toBeVisible();
  await expect(difficulty).toHaveAttribute('data-valid', '0');
  await expect(cell(app, 1, 'valid')).toHaveText('0');
  await expect(cell(app, 1, 'valid')).toHaveClass(/below-target/);

  await app.getByTestId('generate-below').click();
  await app.getByTestId('gen-start').click();
  await expect(app.getByTestId('gen-progress')).toContainText('done', { timeout: 60_000 });
  await expect(app.getByTestId('gen-result')).toContainText('26 slot(s); each produced valid tasks');
  await app.keyboard.press('Escape');

  // Every demo slot is at its target now: the grid's counts and both heat maps say so.
  const cov = await cliCall<Coverage>(server.workspace, 'generation.coverage', {});
  const valid = cov.difficultyByLanguage.reduce((n, c) => n + c.valid, 0);
  expect(valid).toBe(cov.difficultyByLanguage.reduce((n, c) => n + c.planned, 0));
  await expect(difficulty).toHaveAttribute('data-valid', String(valid));
  await expect(services).not.toHaveAttribute('data-valid', '0');
  const target = await cell(app, 1, 'target_count').textContent();
  await expect(cell(app, 1, 'valid')).toHaveText(target!);
  await expect(cell(app, 1, 'generated')).toHaveText(target!);
  await expect(cell(app, 1, 'valid')).not.toHaveClass(/below-target/);
  await app.screenshot({ path: testInfo.outputPath('coverage-filled.png') });
  await testInfo.attach('coverage-filled', {
    path: testInfo.outputPath('coverage-filled.png'),
    contentType: 'image/png',
  });

  // A click on the difficulty × language cell "hard × zh" filters the grid to its slots.
  const hardZh = cov.difficultyByLanguage.find((c) => c.row === 'hard' && c.col === 'zh')!;
  const rows = ['easy', 'medium', 'hard'].filter((r) => cov.difficultyByLanguage.some((c) => c.row === r));
  const cols = [...new Set(cov.difficultyByLanguage.map((c) => c.col))].sort();
  const box = (await difficulty.boundingBox())!;
  // The chart's grid: 90 px left, 16 right, 8 top, 56 bottom; category y runs bottom to top.
  const w = (box.width - 106) / cols.length;
  const h = (box.height - 64) / rows.length;
  await difficulty.click({
    position: { x: 90 + (cols.indexOf('zh') + 0.5) * w, y: 8 + (rows.length - 1 - rows.indexOf('hard') + 0.5) * h },
  });
  await expect(app.getByTestId('status-rows')).toHaveText(`${hardZh.slots} of 26 rows (filtered)`);
});

test('a bad plan CSV is refused with file, line and field; nothing is imported', async ({ app }) => {
  await app.getByTestId('import-csv-file').setInputFiles({
    name: 'bad-plan.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      'family,services,category,difficulty,language,reference_date,scenario\n' +
        'ok,gmail,mail,easy,en,2026-05-01,single_service\n' +
        'bad,gmail,mail,easy,fr,2026-05-01,single_service\n',
    ),
  });
  await expect(app.getByTestId('plan-notice')).toContainText('bad-plan.csv:3: language: one of en, zh');
  await expect(app.getByTestId('plan-notice')).toContainText('nothing was imported');
  await expect(app.getByTestId('status-rows')).toHaveText('26 rows');
});
