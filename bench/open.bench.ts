/**
 * Opening a workspace (issue "Hardening the core", reliability item 7): every createCore runs
 * PRAGMA quick_check so a damaged file is refused before anything is written to it. What does that
 * cost a CLI command, which opens the workspace each time?
 *
 *   - full open: createCore + close (header checks, quick_check, migrations check, seed check, WAL);
 *   - quick_check alone on an open connection;
 *   - baseline (same run): openDb without the check + close.
 *
 * On the demo workspace (26 slots) and on 100,000 slots (BENCH_SLOTS). No assertions: figures only.
 */
import fs from 'node:fs';
import { createCore } from '../src/main/core';
import { openDb } from '../src/main/core/db/sqlite';
import { emit, header, ms, ratio, sample, stats, table } from './lib/harness';
import { benchWorkspace } from './lib/workspace';

const BENCH = 'open';
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const SIZES = [0, Number(process.env.BENCH_SLOTS ?? 100_000)];

async function main(): Promise<void> {
  header('workspace open: cost of PRAGMA quick_check');
  const rows: string[][] = [];
  for (const slots of SIZES) {
    const ws = benchWorkspace({ slots, seedDemo: true });
    await ws.core.close();
    const label = slots ? `${slots.toLocaleString('en-US')} slots` : 'demo workspace';
    const baseline = stats(await sample(() => openDb(ws.file, { check: false }).close(), RUNS, 3));
    const full = stats(
      await sample(
        async () => {
          const core = createCore({ workspacePath: ws.file, watchIntervalMs: 0 });
          await core.close();
        },
        RUNS,
        3,
      ),
    );
    const db = openDb(ws.file, { check: false });
    const check = stats(await sample(() => db.pragma('quick_check'), RUNS, 3));
    db.close();
    const { size } = fs.statSync(ws.file);
    await ws.close();
    const mb = `${(size / 1e6).toFixed(1)} MB`;
    for (const [name, s] of [
      ['baseline: openDb without check + close', baseline],
      ['createCore + close (with quick_check)', full],
      ['PRAGMA quick_check alone', check],
    ] as const) {
      const r = s.median / baseline.median;
      rows.push([`${label} (${mb}) · ${name}`, ms(s.median), ms(s.p95), ratio(r)]);
      emit({
        bench: BENCH,
        name: `${label} · ${name}`,
        median_ms: s.median,
        p95_ms: s.p95,
        ratio: r,
        baseline: `openDb without quick_check, median ${ms(baseline.median)}`,
      });
    }
  }
  console.log(table(['figure', 'median', 'p95', 'vs baseline'], rows));
}

void main();
