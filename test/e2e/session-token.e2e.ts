import { expect, test } from './fixtures';

/** Issue 21 item 9: a tab without a valid token says what happened and how to get a fresh link. */
test.describe('a tab the server does not accept', () => {
  test('opened from a bookmark (no token): no empty grids, says how to sign in', async ({ page, server }) => {
    await page.goto(`${server.url}/#/plan`);
    const notice = page.getByTestId('session-expired');
    await expect(notice).toContainText('This tab has no sign-in token');
    await expect(notice).toContainText('coworkenv serve --open');
    await expect(page.locator('.ag-root')).toHaveCount(0);
  });

  test('a token from an earlier start of the server: says it was restarted', async ({ page, server }) => {
    await page.goto(`${server.url}/#token=from-yesterday`);
    const notice = page.getByTestId('session-expired');
    await expect(notice).toContainText('no longer accepts');
    await expect(notice).toContainText('#token=…');
    // The fresh link signs the same tab in again.
    await page.goto('about:blank');
    await page.goto(`${server.url}/#token=${server.token}`);
    await expect(page.locator('.ag-row[row-id]').first()).toBeVisible();
    await expect(page.getByTestId('session-expired')).toHaveCount(0);
  });
});
