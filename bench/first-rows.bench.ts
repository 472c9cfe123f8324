/**
 * Time to first grid rows in the browser: from navigating to the app (browser mode, the headless
 * HTTP server) until the coverage plan grid shows a loaded row (`.ag-row[row-id]`, not a loading
 * stub), in Debian's Chromium through playwright-core. Cold = a new browser context (empty cache);
 * warm = the same context again (cached assets). On the demo workspace and on 100,000 slots.
 *
 * Baseline in the same run: a blank HTML page served by the same server, cold and warm, until `load`.
 * Needs the built renderer (`npx electron-vite build` → out/renderer); skips with a reason otherwise.
 * Goal: median < 1.5 s. No assertions: figures only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { startHttpServer } from '../src/main/headless/http';
import { emit, header, ms, ratio, REPO_ROOT, stats, table, tempDir, type Stats } from './lib/harness';
import { benchWorkspace } from './lib/workspace';

const BENCH = 'first-rows';
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const GOAL_MS = 1_500;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BUILT = path.join(REPO_ROOT, 'out/renderer');
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

/** One navigation in `ctx`: ms from goto until `until` resolves. */
async function visit(ctx: BrowserContext, url: string, until: 'rows' | 'load', timeoutMs = 30_000): Promise<number> {
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  await page.goto('about:blank');
  const t0 = performance.now();
  if (until === 'load') await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
  else {
    await page.goto(url, { waitUntil: 'commit', timeout: timeoutMs });
    await page.locator(ROW).first().waitFor({ state: 'visible', timeout: timeoutMs });
  }
  return performance.now() - t0;
}

/** `runs` cold visits (each in a fresh context) and `runs` warm ones (one context, primed once). */
async function coldAndWarm(
  browser: Browser,
  url: string,
  until: 'rows' | 'load',
): Promise<{ cold: Stats; warm: Stats }> {
  const cold: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const ctx = await browser.newContext();
    try {
      cold.push(await visit(ctx, url, until));
    } finally {
      await ctx.close();
    }
  }
  const warm: number[] = [];
  const ctx = await browser.newContext();
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
    for (const [label, opts] of [
      ['demo workspace', { seedDemo: true }],
      ['100,000 slots', { slots: 100_000 }],
    ] as const) {
      const ws = benchWorkspace(opts);
      const server = await startHttpServer({ core: ws.core, rendererDir: site.dir });
      try {
        const app = `${server.url}/#token=${server.token}`;
        const blank = await coldAndWarm(browser, `${server.url}/bench-blank.html#token=${server.token}`, 'load');
        let grid: { cold: Stats; warm: Stats };
        try {
          grid = await coldAndWarm(browser, app, 'rows');
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
            `${label}, ${temp}`,
            ms(g.median),
            ms(g.p95),
            ms(b.median),
            ratio(g.median / b.median),
            met ? 'met' : 'MISSED',
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
    console.log(`\nChromium ${browser.version()}; with ${RUNS} runs, p95 is the slowest run.`);
    console.log(table(['first grid rows', 'median', 'p95', 'blank page', 'vs blank', `goal < ${GOAL_MS} ms`], rows));
  } finally {
    await browser.close();
    site.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
