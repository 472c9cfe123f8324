/**
 * Time to first grid rows in the browser: from navigating to a page of the app (browser mode, the
 * headless HTTP server) until its grid shows a loaded row (`.ag-row[row-id]`, not a loading stub),
 * in Debian's Chromium through playwright-core. Cold = a new browser context (empty cache); warm =
 * the same context again (cached assets). Cases (knobs, comma-separated counts; empty = none):
 *   BENCH_DEMO=1                 the demo workspace, plan page
 *   BENCH_SLOTS=100000,1000000   a plan of N slots, plan page (#/plan)
 *   BENCH_TASKS=100000           a catalog of N tasks (bench/lib/task-catalog.ts), tasks page (#/tasks)
 * The session token is put in sessionStorage before the page runs (as the #token= URL leaves it),
 * so the navigation is to the page's own URL.
 *
 * Baseline in the same run: a blank HTML page served by the same server, cold and warm, until `load`.
 * Needs the built renderer (`npx electron-vite build` → out/renderer); skips with a reason otherwise.
 * Goal (issue 8): median < 1.0 s. No assertions: figures only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { startHttpServer } from '../src/main/headless/http';
import { emit, header, ms, ratio, REPO_ROOT, stats, table, tempDir, type Stats } from './lib/harness';
import { fillTasks } from './lib/task-catalog';
import { benchWorkspace, type BenchWorkspace } from './lib/workspace';

const BENCH = 'first-rows';
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const GOAL_MS = 1_000;
const counts = (v: string | undefined, dflt: string) =>
  (v ?? dflt)
    .split(',')
    .map((x) => Number(x.trim()))
    .filter((x) => x > 0);
/** The renderer keeps the browser-mode token under this sessionStorage key (api/transport.ts). */
const TOKEN_KEY = 'coworkenv.token';

const loadNow = () => os.loadavg()[0]!.toFixed(2);

type Case = { label: string; route: '#/plan' | '#/tasks'; make(): BenchWorkspace };
const n = (x: number) => x.toLocaleString('en-US');
const CASES: Case[] = [
  ...(process.env.BENCH_DEMO === '0'
    ? []
    : [{ label: 'demo workspace', route: '#/plan' as const, make: () => benchWorkspace({ seedDemo: true }) }]),
  ...counts(process.env.BENCH_SLOTS, '100000,1000000').map((slots) => ({
    label: `${n(slots)} slots`,
    route: '#/plan' as const,
    make: () => benchWorkspace({ slots }),
  })),
  ...counts(process.env.BENCH_TASKS, '100000').map((tasks) => ({
    label: `${n(tasks)} tasks`,
    route: '#/tasks' as const,
    make: () => {
      const ws = benchWorkspace();
      fillTasks(ws.file, tasks);
      return ws;
    },
  })),
];
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// BENCH_RENDERER: another built renderer (e.g. an earlier commit's out/renderer, for a before/after in one run).
const BUILT = process.env.BENCH_RENDERER ?? path.join(REPO_ROOT, 'out/renderer');
/** A loaded data row: ag-grid's infinite model first renders stubs marked ag-row-loading. */
const ROW = '.ag-row[row-id]:not(.ag-row-loading)';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why the benchmark cannot run here, or null. */
function missing(): string | null {
  if (!fs.existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
  if (!fs.existsSync(path.join(BUILT, 'index.html'))) return 'renderer not built (run `npx electron-vite build`)';
  const assets = path.join(BUILT, 'assets');
  const js = fs.existsSync(assets) ? fs.readdirSync(assets).filter((f) => f.endsWith('.js')) : [];
  if (!js.some((f) => fs.readFileSync(path.join(assets, f), 'utf8').includes('ag-row')))
    return 'the built renderer has no ag-grid yet';
  return null;
}

/**
 * One navigation in `ctx`: ms from the start of the navigation until `until`, on the page's own clock
 * (performance.now() counts from the navigation's start). Not the Node clock: the server runs in this
 * process, and a long synchronous call after the rows (plan.stats on 1,000,000 slots, ~400 ms) would
 * delay Node's notice of a row the browser has already shown.
 */
async function visit(ctx: BrowserContext, url: string, until: 'rows' | 'load', timeoutMs = 30_000): Promise<number> {
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  await page.goto('about:blank');
  if (until === 'load') {
    await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
    return Number(await page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd"));
  }
  await page.goto(url, { waitUntil: 'commit', timeout: timeoutMs });
  await page.locator(ROW).first().waitFor({ state: 'visible', timeout: timeoutMs });
  await page.waitForFunction('window.__firstRowAt !== undefined', undefined, { timeout: timeoutMs });
  return Number(await page.evaluate('window.__firstRowAt'));
}

/**
 * Before any page script: the session token in sessionStorage, and an observer that notes (page
 * clock) the first frame in which a loaded grid row is in the DOM.
 */
const initScript = (token: string) => `
  try { sessionStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)}); } catch {}
  if (location.protocol.startsWith('http')) {
    const seen = () => {
      if (window.__firstRowAt !== undefined || !document.querySelector(${JSON.stringify(ROW)})) return;
      requestAnimationFrame(() => { window.__firstRowAt = performance.now(); });
      observer.disconnect();
    };
    const observer = new MutationObserver(seen);
    observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
  }
`;

/** `runs` cold visits (each in a fresh context) and `runs` warm ones (one context, primed once). */
async function coldAndWarm(
  browser: Browser,
  url: string,
  until: 'rows' | 'load',
  token: string,
): Promise<{ cold: Stats; warm: Stats }> {
  const context = async () => {
    const ctx = await browser.newContext();
    await ctx.addInitScript({ content: initScript(token) });
    return ctx;
  };
  const cold: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const ctx = await context();
    try {
      cold.push(await visit(ctx, url, until));
    } finally {
      await ctx.close();
    }
  }
  const warm: number[] = [];
  const ctx = await context();
  try {
    await visit(ctx, url, until); // primes the cache
    for (let i = 0; i < RUNS; i++) warm.push(await visit(ctx, url, until));
  } finally {
    await ctx.close();
  }
  return { cold: stats(cold), warm: stats(warm) };
}

async function main() {
  header(`${BENCH}: navigation → first loaded grid row in Chromium (${RUNS} cold + ${RUNS} warm runs)`);
  const why = missing();
  if (why) {
    console.log(`skipped: ${why}`);
    emit({
      bench: BENCH,
      name: 'first grid rows',
      median_ms: NaN,
      ratio: null,
      baseline: 'blank page',
      goal: `median < ${GOAL_MS} ms`,
      skipped: why,
    });
    return;
  }

  // Serve a copy of the renderer with one blank page added, so the baseline goes through the same server and static
  // path.
  const site = tempDir('coworkenv-bench-site-');
  fs.cpSync(BUILT, site.dir, { recursive: true });
  fs.writeFileSync(
    path.join(site.dir, 'bench-blank.html'),
    '<!doctype html><meta charset="utf-8"><title>blank</title><p>blank</p>\n',
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  const rows: string[][] = [];

  try {
    for (const { label, route, make } of CASES) {
      const ws = make();
      const server = await startHttpServer({ core: ws.core, rendererDir: site.dir });
      try {
        const blank = await coldAndWarm(browser, `${server.url}/bench-blank.html`, 'load', server.token);
        let grid: { cold: Stats; warm: Stats };
        try {
          grid = await coldAndWarm(browser, `${server.url}/${route}`, 'rows', server.token);
        } catch (err) {
          const reason = `no loaded ${ROW} within 30 s (${(err as Error).message.split('\n')[0]})`;
          console.log(`${label}: skipped: ${reason}`);
          emit({
            bench: BENCH,
            name: `${label} · first grid rows`,
            median_ms: NaN,
            ratio: null,
            baseline: 'blank page',
            goal: `median < ${GOAL_MS} ms`,
            skipped: reason,
          });
          continue;
        }
        for (const temp of ['cold', 'warm'] as const) {
          const g = grid[temp];
          const b = blank[temp];
          const met = g.median < GOAL_MS;
          rows.push([
            `${label} (${route}), ${temp}`,
            ms(g.median),
            ms(g.p95),
            ms(b.median),
            ratio(g.median / b.median),
            met ? 'met' : 'MISSED',
            loadNow(),
          ]);
          emit({
            bench: BENCH,
            name: `${label} · first grid rows, ${temp}`,
            median_ms: g.median,
            p95_ms: g.p95,
            ratio: g.median / b.median,
            baseline: `blank page, ${temp}`,
            goal: `median < ${GOAL_MS} ms`,
            met,
          });
          emit({
            bench: BENCH,
            name: `${label} · baseline: blank page, ${temp}`,
            median_ms: b.median,
            p95_ms: b.p95,
            ratio: 1,
            baseline: 'itself',
          });
        }
      } finally {
        await server.close();
        await ws.close();
      }
    }
    console.log(`\nChromium ${browser.version()}; with ${RUNS} runs, p95 is the slowest run; load = 1-min average.`);
    console.log(
      table(['first grid rows', 'median', 'p95', 'blank page', 'vs blank', `goal < ${GOAL_MS} ms`, 'load'], rows),
    );
  } finally {
    await browser.close();
    site.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
