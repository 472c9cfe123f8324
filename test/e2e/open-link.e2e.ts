import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, startServer, test } from './fixtures';

/**
 * `serve --open` in a real browser: the opener gets a one-time /open/<code> link (its argv is
 * readable by every local user), the server answers it with the token for that tab only, and the
 * app then works (the plan grid loads through the token-authenticated transport).
 */
test('serve --open signs the browser in through a one-time link, with no token on its command line', async ({
  page,
}) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coworkenv-open-'));
  const argsFile = path.join(dir, 'argv.txt');
  const browser = path.join(dir, 'fake-browser.sh');
  fs.writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\n`, { mode: 0o755 });
  const server = await startServer({ args: ['--open'], env: { COWORKENV_BROWSER: browser } });
  try {
    await expect.poll(() => fs.existsSync(argsFile)).toBe(true);
    const link = fs.readFileSync(argsFile, 'utf8').trim();
    expect(link).toMatch(/\/open\/[A-Za-z0-9_-]+$/);
    expect(link).not.toContain(server.token);

    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(link);
    await expect(page.locator('.ag-row[row-id]').first()).toBeVisible();
    // The token left the address bar; a reload keeps the tab signed in (sessionStorage).
    expect(page.url()).not.toContain('token');
    await page.reload();
    await expect(page.locator('.ag-row[row-id]').first()).toBeVisible();

    // The link is spent: another tab gets the "already used" page, not the app.
    const other = await page.context().newPage();
    const answer = await other.goto(link);
    expect(answer?.status()).toBe(410);
    await expect(other.locator('body')).toContainText('already used or has expired');
    expect(errors).toEqual([]);
  } finally {
    server.proc.kill('SIGTERM');
  }
});
