import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/coworkenv.js');

export type Server = { url: string; token: string; workspace: string; proc: ChildProcess };

/** Runs the real CLI against the test's workspace (as a user would, from another terminal). */
export function cli(workspace: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, '--workspace', workspace, '--json', ...args], (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

export async function cliCall<T = unknown>(workspace: string, procedure: string, input: unknown): Promise<T> {
  const r = await cli(workspace, ['call', procedure, '--input', JSON.stringify(input)]);
  const env = JSON.parse(r.stdout);
  if (!env.ok) throw new Error(`${procedure}: ${env.error.message}`);
  return env.data as T;
}

/** `coworkenv serve` on a fresh temporary workspace with the demo plan; one per test. */
export async function startServer(o: { args?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<Server> {
  if (!fs.existsSync(path.join(ROOT, 'out/renderer/index.html')))
    throw new Error('run `npm run build` before the e2e tests');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coworkenv-e2e-'));
  const workspace = path.join(dir, 'e2e.coworkenv.db');
  const args = [BIN, '--workspace', workspace, '--json', 'serve', '--port', '0', ...(o.args ?? [])];
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...o.env } });
  const first = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    proc.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    proc.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  const { data } = JSON.parse(first) as { data: { url: string; token: string } };
  return { url: data.url, token: data.token, workspace, proc };
}

/** Every e2e test fails on a console error or an uncaught page error. */
export const test = base.extend<{ server: Server; app: Page; consoleErrors: string[] }>({
  server: async ({}, use) => {
    const s = await startServer();
    await use(s);
    s.proc.kill('SIGTERM');
  },
  consoleErrors: async ({}, use) => {
    await use([]);
  },
  app: async ({ page, server, consoleErrors }, use) => {
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    await page.goto(`${server.url}/#token=${server.token}`);
    await expect(page.locator('.ag-row[row-id]').first()).toBeVisible();
    await use(page);
    expect(consoleErrors, 'console errors').toEqual([]);
  },
});

export { expect };

const DOCS = path.join(ROOT, 'docs');
/**
 * The page as a user sees it, at 1440×900, into docs/<name> — only with SCREENSHOTS=1 (after `npm run build`),
 * so a normal run never rewrites the docs. Call it at the end of a page's walk: it resizes the window.
 */
export async function docsShot(app: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOTS !== '1') return;
  await app.setViewportSize({ width: 1440, height: 900 });
  await app.screenshot({ path: path.join(DOCS, name) });
}

/** The grid cell of slot `id` in column `field`. */
export const cell = (page: Page, id: number, field: string) =>
  page.locator(`.ag-row[row-id="${id}"] [col-id="${field}"]`);

/** Double-click a cell, replace its text, press Enter. */
export async function editCell(page: Page, id: number, field: string, text: string): Promise<void> {
  await cell(page, id, field).dblclick();
  const input = page.locator(`.ag-row[row-id="${id}"] [col-id="${field}"] input`);
  await input.fill(text);
  await input.press('Enter');
}

/** Fire a paste of `text` on the grid the way a browser does for Ctrl+V. */
export async function pasteText(page: Page, text: string): Promise<void> {
  await page.locator('[data-testid=plan-grid]').evaluate((el, t) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    const target = el.querySelector('.ag-cell-focus') ?? el;
    target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
}
