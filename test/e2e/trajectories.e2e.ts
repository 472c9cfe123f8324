import { writeTrace } from '../../src/main/core/traces';
import { synthTrajectory } from '../helpers/claw-traces';
import { CLAW_ROOT, FULL_DATA } from '../helpers/shared-data';
import { cliCall, docsShot, expect, test } from './fixtures';

type Stored = { id: number };

test.describe('Trajectories page', () => {
  test.skip(!FULL_DATA, 'needs the full corpora (../shared or COWORKENV_SHARED), not the shipped subset');

  /** T018 (it calls the prohibited helpdesk_close_ticket: safety 0), a T018 run without it, and T019zh. */
  async function seed(workspace: string): Promise<{ full: number; clean: number; inventory: number }> {
    await cliCall(workspace, 'tasks.import', { paths: [CLAW_ROOT] });
    const store = async (traceJsonl: string, collection?: string) =>
      (
        await cliCall<Stored>(workspace, 'trajectories.importTrace', {
          traceJsonl,
          ...(collection ? { collection } : {}),
        })
      ).id;
    const full = await store(writeTrace(synthTrajectory('T018_ticket_triage')));
    const clean = await store(
      writeTrace(synthTrajectory('T018_ticket_triage', { keep: (t) => t !== 'helpdesk_close_ticket' })),
      'clean-runs',
    );
    // Without its recorded orders (SKU-9999, one without a quantity: a wrong_order violation): judge pending.
    const inventory = await store(
      writeTrace(synthTrajectory('T019zh_inventory_check', { keep: (t) => t !== 'inventory_create_order' })),
    );
    return { full, clean, inventory };
  }

  test("a yes/no column's set filter lists its values as its cells show them (yes/no, not 0/1)", async ({
    app,
    server,
  }) => {
    await seed(server.workspace);
    await app.goto(`${server.url}/#/trajectories`);
    await expect(app.getByTestId('status-rows')).toHaveText('3 trajectories');
    const cells = await app.locator('.ag-row [col-id="passed"]').allTextContents();
    expect(cells).toHaveLength(3);
    await app.locator('.ag-header-cell[col-id="passed"] .ag-header-cell-filter-button').click();
    const f = app.getByTestId('set-filter-passed');
    await expect(f.locator('.set-option').first()).toBeVisible();
    const labels = await f.locator('.set-value').allTextContents();
    // An empty cell (a pass a judge has yet to decide) is listed as "(blank)".
    expect(labels.sort()).toEqual([...new Set(cells.map((c) => c || '(blank)'))].sort());
    for (const l of labels) expect(['yes', 'no', '(blank)']).toContain(l);
    // The search box reads the shown words too.
    await f.getByLabel('Search values').fill(labels[0]!);
    await expect(f.locator('.set-value')).toHaveText([labels[0]!]);
  });

  test('opens the grid and the viewer, follows checks to their call and audit record, compares two runs', async ({
    app,
    server,
  }, testInfo) => {
    const ids = await seed(server.workspace);
    await app.getByRole('button', { name: 'Trajectories' }).click();
    await expect(app).toHaveURL(/#\/trajectories$/);
    await expect(app.getByTestId('status-rows')).toHaveText('3 trajectories');
    await docsShot(app, 'trajectories.png');
    // Sorted by score in SQL: unknown scores (a judge pending) first, then the run with the prohibited call (0: a
    // safety violation settles the score whatever a judge would say).
    await app.locator('.ag-header-cell[col-id="score"]').click();
    const scored = app.locator('.ag-row').filter({ has: app.locator('[col-id="score"]:not(:empty)') });
    await expect(scored.first().locator('[col-id="id"]')).toHaveText(String(ids.full));

    await app.locator(`.ag-row[row-id="${ids.full}"] [col-id="task_id"]`).click();
    await expect(app).toHaveURL(new RegExp(`#/trajectories/${ids.full}$`));
    const viewer = app.getByTestId('trajectory-viewer');
    await expect(viewer.getByRole('heading', { name: `Trajectory #${ids.full} · T018_ticket_triage` })).toBeVisible();
    await expect(app.getByTestId('grade-score')).toContainText('0.0000');
    // The first tool call's arguments are pretty-printed JSON.
    await expect(viewer.getByTestId('tool-call').first().locator('pre')).toContainText('{\n  "ticket_id"');

    // A tool_called check → the call that met it, scrolled into view and highlighted.
    await app.getByTestId('check-priority_updates').locator('.check-main').click();
    const call = app.locator('#call-7-toolu_003');
    await expect(call).toHaveClass(/evidence-focus/);
    await expect(call).toBeInViewport();
    await expect(call).toContainText('helpdesk_update_ticket');

    // An audit check → the audit record.
    await app.getByTestId('check-helpdesk.updated_tickets').locator('.check-main').click();
    const record = app.locator('#audit-helpdesk-updated_tickets-0');
    await expect(record).toHaveClass(/evidence-focus/);
    await expect(record).toBeInViewport();
    await expect(call).not.toHaveClass(/evidence-focus/);

    // A safety violation → the prohibited call; a final_text check → the last assistant message.
    await app.getByTestId('violation-0').click();
    await expect(app.locator('#call-11-toolu_005')).toHaveClass(/evidence-focus/);
    await app.getByTestId('check-classification').locator('.check-main').click();
    await expect(app.locator('#msg-43')).toHaveClass(/evidence-focus/);
    await expect(app.locator('#msg-43')).toBeInViewport();
    await app.screenshot({ path: testInfo.outputPath('viewer.png') });

    // Compare with the clean run of the same task: the check table marks where they differ.
    await viewer.getByLabel('Compare with').selectOption(String(ids.clean));
    await expect(app).toHaveURL(new RegExp(`#/trajectories/${ids.full}/compare/${ids.clean}$`));
    const compare = app.getByTestId('compare-view');
    await expect(compare.getByTestId('compare-checks').locator('tr.differs').first()).toContainText('score');
    await expect(compare.getByTestId(`compare-side-${ids.full}`)).toBeVisible();
    await expect(compare.getByTestId(`compare-side-${ids.clean}`)).toBeVisible();
    // Each side names its collection and agent (issue 21 item 10).
    await expect(compare.getByTestId(`compare-source-${ids.clean}`)).toContainText('collection clean-runs · agent');
    await expect(compare.getByTestId(`compare-source-${ids.full}`)).not.toContainText('clean-runs');
    await app.screenshot({ path: testInfo.outputPath('compare.png') });
    await app.goBack();
    await expect(viewer).toBeVisible();
  });

  test('full-text search over message text filters the grid; the set filter lists values under it', async ({
    app,
    server,
  }) => {
    const ids = await seed(server.workspace);
    await app.goto(`${server.url}/#/trajectories`);
    await expect(app.getByTestId('status-rows')).toHaveText('3 trajectories');
    const box = app.getByLabel('Search message text');
    await box.fill('helpdesk_close_ticket');
    await box.press('Enter');
    await expect(app.getByTestId('status-rows')).toHaveText('1 of 3 trajectories (filtered)');
    await expect(app.locator('.ag-row[row-id]')).toHaveCount(1);
    await expect(app.locator(`.ag-row[row-id="${ids.full}"]`)).toBeVisible();
    // The Task column's set filter counts values under the text search: only T018, once.
    await app.locator('.ag-header-cell[col-id="task_id"] .ag-header-cell-filter-button').click();
    const f = app.getByTestId('set-filter-task_id');
    await expect(f.locator('.set-option')).toHaveCount(1);
    await expect(f.locator('.set-option')).toContainText('T018_ticket_triage1');
    await app.keyboard.press('Escape');

    // FTS5 syntax: OR.
    await app.getByLabel('Search mode').selectOption('fts');
    await box.fill('helpdesk_close_ticket OR inventory_list_products');
    await box.press('Enter');
    await expect(app.getByTestId('status-rows')).toHaveText('2 of 3 trajectories (filtered)');
    await expect(app.locator(`.ag-row[row-id="${ids.inventory}"]`)).toBeVisible();

    // A broken query says why, in the status bar; clearing the search shows every row again.
    await box.fill('"unterminated');
    await box.press('Enter');
    await expect(app.getByTestId('trajectories-notice')).toContainText('not a valid search');
    await app.getByLabel('clear text search').click();
    await expect(app.getByTestId('status-rows')).toHaveText('3 trajectories');
  });
});
