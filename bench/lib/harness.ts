/**
 * Shared benchmark helpers: sampling, statistics, printing, and the one machine-readable line per
 * figure that scripts/bench.mjs collects for its summary. No timing assertions: benchmarks print.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

export const REPO_ROOT = path.resolve(__dirname, '../..');

export type Stats = { n: number; median: number; p95: number; p99: number; mean: number; min: number; max: number };

/** Nearest-rank percentile on a sorted copy; good enough for ≥ 30 samples. */
export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
  const sum = s.reduce((a, b) => a + b, 0);
  return {
    n: s.length,
    median: at(50),
    p95: at(95),
    p99: at(99),
    mean: sum / (s.length || 1),
    min: s[0] ?? NaN,
    max: s[s.length - 1] ?? NaN,
  };
}

/** Runs `fn` `warmup` times unmeasured, then `runs` times; answers each run's duration in ms. */
export async function sample(fn: () => unknown, runs: number, warmup = Math.min(10, runs)): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = new Array(runs);
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    out[i] = performance.now() - t0;
  }
  return out;
}

/**
 * Throughput and latency of sequential calls: each call's latency, and calls/s over the whole
 * measured window. Synchronous functions are not awaited, so the baseline carries no promise cost.
 */
export async function throughput(
  fn: () => unknown,
  calls: number,
  warmup = Math.ceil(calls / 10),
): Promise<{ callsPerSec: number; lat: Stats }> {
  for (let i = 0; i < warmup; i++) {
    const r = fn();
    if (r instanceof Promise) await r;
  }
  const lat: number[] = new Array(calls);
  const start = performance.now();
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    const r = fn();
    if (r instanceof Promise) await r;
    lat[i] = performance.now() - t0;
  }
  const elapsed = performance.now() - start;
  return { callsPerSec: (calls / elapsed) * 1000, lat: stats(lat) };
}

/** One figure for the summary. `ratio` is this figure over the baseline measured in the same run. */
export type Figure = {
  bench: string;
  name: string;
  median_ms: number;
  p95_ms?: number;
  p99_ms?: number;
  calls_per_s?: number;
  ratio: number | null;
  baseline: string;
  goal?: string;
  met?: boolean;
  skipped?: string;
};

/** scripts/bench.mjs greps stdout for this prefix to build its summary table. */
export const FIGURE_PREFIX = '@@bench-figure ';

export function emit(f: Figure): void {
  process.stdout.write(`${FIGURE_PREFIX}${JSON.stringify(f)}\n`);
}

export const ms = (v: number | undefined) =>
  v === undefined || Number.isNaN(v) ? '—' : v < 1 ? `${(v * 1000).toFixed(1)} µs` : `${v.toFixed(v < 10 ? 2 : 1)} ms`;
export const rate = (v: number | undefined) => (v === undefined ? '—' : `${Math.round(v).toLocaleString('en-US')}/s`);
export const ratio = (v: number | null | undefined) =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : `×${v < 10 ? v.toFixed(2) : v.toFixed(1)}`;

/** A plain fixed-width table (first column left-aligned, the rest right-aligned). */
export function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function header(title: string): void {
  console.log(`\n=== ${title} ===`);
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(
    `machine: ${os.cpus().length} cpu (${os.cpus()[0]?.model.trim() ?? '?'}), node ${process.version}, ` +
      `${os.platform()} ${os.arch()}, load average ${load}`,
  );
}

/** A fresh folder under the OS temp dir; removed by `cleanup`. */
export function tempDir(prefix: string): { dir: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
