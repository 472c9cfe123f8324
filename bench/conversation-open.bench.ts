/**
 * Opening a long trajectory in the viewer (issue 21 item 5), in Debian's Chromium (playwright-core,
 * headless) through the headless server: ms on the page clock from navigating to
 * `#/trajectories/<id>` until its conversation shows message #1 (a frame after it is in the DOM),
 * for a 2,003-message trajectory. Baseline in the same run: the same for a 23-message trajectory.
 * BENCH_RENDERER: another built renderer (e.g. one built before the conversation was virtualized).
 * Goal: median < 1 s for 2,000 messages. Needs the built renderer; skips with a reason otherwise.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startHttpServer } from '../src/main/headless/http';
import { emit, header, ms, ratio, REPO_ROOT, stats, table, tempDir } from './lib/harness';
import { benchWorkspace } from './lib/workspace';

const RUNS = Number(process.env.BENCH_RUNS ?? 8);
const GOAL_MS = 1_000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BUILT = process.env.BENCH_RENDERER ?? path.join(REPO_ROOT, 'out/renderer');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];

/**
 * One trajectory of 3 + 4 × turns messages, shaped like an agent's: a question, a tool call, its JSON
 * result (~1.5 KB, pretty-printed by the viewer), an answer.
 */
const conversation = (turns: number) => {
  const messages: unknown[] = [{ role: 'system', content: 'You are a helpful agent.' }];
  for (let i = 0; i < turns; i++) {
    const id = `call_${i}`;
    const args = JSON.stringify({ order_id: `#W${i}` });
    const items = Array.from({ length: 12 }, (_, k) => ({
      sku: `SKU-${i}-${k}`,
      name: `item ${k}`,
      qty: k,
      price: 9.5,
    }));
    messages.push({ role: 'user', content: `question ${4 * i + 1}: how is order W${i} doing?` });
    messages.push({
      role: 'assistant',
      content: '',
      tool_calls: [{ id, type: 'function', function: { name: 'get_order_details', arguments: args } }],
    });
    messages.push({ role: 'tool', tool_call_id: id, name: 'get_order_details', content: JSON.stringify({ items }) });
    messages.push({ role: 'assistant', content: `answer ${4 * i + 4}: order W${i} ships in ${i % 7} days.` });
  }
  messages.push({ role: 'user', content: 'thanks' }, { role: 'assistant', content: 'You are welcome.' });
  return JSON.stringify({ messages });
};

async function main() {
  header(`conversation-open: a trajectory's viewer until message #1 is shown, in Chromium (${RUNS} runs)`);
  if (!fs.existsSync(CHROMIUM) || !fs.existsSync(path.join(BUILT, 'index.html'))) {
    const why = fs.existsSync(CHROMIUM) ? 'renderer not built (npm run build)' : `no Chromium at ${CHROMIUM}`;
    console.log(`skipped: ${why}`);
    emit({
      bench: 'conversation-open',
      name: '2,003 messages',
      median_ms: NaN,
      ratio: null,
      baseline: '',
      skipped: why,
    });
    return;
  }
  const ws = benchWorkspace();
  const dir = tempDir('coworkenv-bench-conv-');
  const file = path.join(dir.dir, 'runs.jsonl');
  fs.writeFileSync(file, `${conversation(5)}\n${conversation(500)}\n`);
  // Through the built CLI: a job's worker is the built one (out/), which a tsx-run core cannot start.
  const cli = (args: string[]) =>
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'bin/coworkenv.js'), '--workspace', ws.file, ...args]);
  cli(['trajectories', 'import', file, '--format', 'openai-jsonl']);
  const listed = await ws.core.dispatch('trajectories.list', { sort: [{ field: 'id', dir: 'asc' }] });
  if (!listed.ok) throw new Error(listed.error.message);
  const [short, long] = (listed.data as { rows: { id: number }[] }).rows.map((r) => r.id);
  const server = await startHttpServer({ core: ws.core, rendererDir: BUILT });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await ctx.addInitScript({ content: `sessionStorage.setItem('coworkenv.token', ${JSON.stringify(server.token)});` });
  const page = await ctx.newPage();
  const open = async (id: number) => {
    await page.goto('about:blank');
    await page.goto(`${server.url}/#/trajectories/${id}`, { waitUntil: 'commit' });
    await page
      .locator('[data-testid="message-1"]')
      .waitFor({ state: 'visible', timeout: 60_000 })
      .catch(async (e) => {
        console.log(((await page.locator('body').textContent()) ?? '').slice(0, 600));
        throw e;
      });
    return Number(await page.evaluate('new Promise((r) => requestAnimationFrame(() => r(performance.now())))'));
  };
  try {
    await open(short!); // primes the cache: both cases are warm
    const base: number[] = [];
    const big: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      base.push(await open(short!));
      big.push(await open(long!));
    }
    const b = stats(base);
    const s = stats(big);
    const met = s.median < GOAL_MS;
    console.log(
      table(
        ['trajectory', 'median', 'p95', 'vs 23 messages', `goal < ${GOAL_MS} ms`],
        [
          ['23 messages (baseline)', ms(b.median), ms(b.p95), '×1.00', ''],
          ['2,003 messages', ms(s.median), ms(s.p95), ratio(s.median / b.median), met ? 'met' : 'MISSED'],
        ],
      ),
    );
    emit({
      bench: 'conversation-open',
      name: '2,003 messages',
      median_ms: s.median,
      p95_ms: s.p95,
      ratio: s.median / b.median,
      baseline: '23-message trajectory, same page',
      goal: `< ${GOAL_MS} ms`,
      met,
    });
  } finally {
    await browser.close();
    await server.close();
    await ws.close();
    dir.cleanup();
  }
}

void main();
