import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SHARED } from '../helpers/shared-data';
import { cli, expect, test } from './fixtures';

// Present in the shipped subset and in the full corpora alike.
const TAU_BENCH = path.join(SHARED, 'corpora/trajectories/tau-bench/gpt-4o-airline.json');

/**
 * The traps need more than 10 tasks (the confirmation threshold) and the shipped slice holds 3: the file's real
 * records again under further task ids (k × 1000), so a bare clone walks the same path as the full corpora.
 */
function widenedTauBench(): string {
  const records = JSON.parse(fs.readFileSync(TAU_BENCH, 'utf8')) as { task_id: number }[];
  const copies = [0, 1, 2, 3].flatMap((k) => records.map((r) => ({ ...r, task_id: r.task_id + k * 1000 })));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'coworkenv-traps-')), 'tau-bench-widened.json');
  fs.writeFileSync(file, JSON.stringify(copies));
  return file;
}

/** Issue 21 item 6: the Curation page's selection, reason, suggestions and undo traps. */
test('curation: selections follow the filter, reasons are not reused, big changes ask first, Ctrl+Z undoes', async ({
  app,
  server,
}) => {
  expect((await cli(server.workspace, ['trajectories', 'import', widenedTauBench()])).code).toBe(0);
  await app.getByRole('button', { name: 'Curation' }).click();
  const grid = app.getByTestId('curation-grid');
  const notice = app.getByTestId('curation-notice');
  await expect(grid.locator('.ag-row[row-id]').first()).toBeVisible();
  const total = Number(((await app.getByTestId('status-rows').textContent()) ?? '').match(/\d+/)![0]);
  expect(total).toBeGreaterThan(10);

  // Apply suggestions with nothing selected changes nothing (it used to act on every task).
  await app.getByTestId('curation-reason').fill('rules for all');
  await app.getByTestId('apply-suggestions').click();
  await expect(notice).toContainText('Select tasks (or Select all)');

  // "Select all" under a search, then the search cleared: the selection goes with it.
  const search = app.getByPlaceholder('Search task ids, names, categories…');
  const firstId = (await grid.locator('.ag-row[row-id]').first().getAttribute('row-id'))!;
  await search.fill(firstId);
  await expect(app.getByTestId('status-rows')).not.toHaveText(`${total} tasks`);
  await app.getByTestId('select-matching').click();
  await expect(notice).toContainText('Selected');
  await expect(app.getByTestId('status-selected')).toBeVisible();
  await search.fill('');
  await expect(app.getByTestId('status-rows')).toHaveText(`${total} tasks`);
  await expect(app.getByTestId('status-selected')).toHaveCount(0);

  // Select all (every task): applying suggestions says how many will change and asks; dismissed, nothing changes.
  await app.getByTestId('select-matching').click();
  await expect(app.getByTestId('status-selected')).toContainText(String(total));
  const dialogs: string[] = [];
  app.once('dialog', (d) => (dialogs.push(d.message()), void d.dismiss()));
  await app.getByTestId('apply-suggestions').click();
  await expect(notice).toContainText('Apply suggestions: cancelled, nothing changed');
  expect(dialogs[0]).toMatch(/^Apply suggestions: \d+ of \d+ selected task\(s\) will change/);
  await expect(app.getByTestId('curation-reason')).toHaveValue('rules for all');
  app.once('dialog', (d) => void d.accept());
  await app.getByTestId('apply-suggestions').click();
  await expect(notice).toContainText(/Apply suggestions: \d+ changed \(batch \d+\)/);
  // The reason was logged with that change: the box is empty for the next one.
  await expect(app.getByTestId('curation-reason')).toHaveValue('');

  // Ctrl+Z (focus on the page, not in a field) undoes the batch.
  await app.locator('h1').click();
  await app.keyboard.press('Control+z');
  await expect(notice).toContainText(/Undo: \d+ changed/);
});
