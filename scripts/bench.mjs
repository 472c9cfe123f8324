#!/usr/bin/env node
// Runs the benchmarks in bench/*.bench.ts one after another (never in parallel: they would time
// each other), each in its own Node process through tsx, then prints one summary table.
//
//   npm run bench                      every benchmark
//   node scripts/bench.mjs transport   only bench/transport.bench.ts (several names may be given)
//   node scripts/bench.mjs --markdown  the summary as a Markdown table too (for bench/README.md)
//
// Benchmarks print their own tables; each figure is also printed as one `@@bench-figure {json}`
// line, which this script collects for the summary instead of echoing it. Missed goals are
// reported, not failed: timing goals are never assertions (DESIGN.md §11). The exit code is non-zero
// only when a benchmark crashes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = path.join(root, 'bench');
const PREFIX = '@@bench-figure ';

const all = fs
  .readdirSync(benchDir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
const markdown = process.argv.includes('--markdown');
const wanted = process.argv.slice(2).filter((a) => a !== '--markdown');
const unknown = wanted.filter((w) => !all.includes(`${w.replace(/\.bench\.ts$/, '')}.bench.ts`));
if (unknown.length) {
  console.error(
    `unknown benchmark: ${unknown.join(', ')}; known: ${all.map((f) => f.replace('.bench.ts', '')).join(', ')}`,
  );
  process.exit(2);
}
const files = wanted.length
  ? all.filter((f) => wanted.some((w) => f === `${w.replace(/\.bench\.ts$/, '')}.bench.ts`))
  : all;

console.log(`benchmarks: ${files.join(', ')}`);
console.log(
  `machine: ${os.cpus().length} cpu (${os.cpus()[0]?.model.trim() ?? '?'}), node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

/** Runs one benchmark; resolves with its figures and exit code. */
function run(file) {
  return new Promise((resolve) => {
    const started = Date.now();
    const figures = [];
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', file)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith(PREFIX)) figures.push(JSON.parse(line.slice(PREFIX.length)));
      else console.log(line);
    });
    child.on('close', (code, signal) =>
      resolve({ file, code: code ?? (signal ? 1 : 0), figures, seconds: (Date.now() - started) / 1000 }),
    );
  });
}

const fmtMs = (v) =>
  v === undefined || v === null ? '—' : v < 1 ? `${(v * 1000).toFixed(1)} µs` : `${v.toFixed(v < 10 ? 2 : 1)} ms`;
const fmtRatio = (v) => (v === undefined || v === null ? '—' : `×${v < 10 ? v.toFixed(2) : v.toFixed(1)}`);
const fmtRate = (v) => (v === undefined ? '' : `${Math.round(v).toLocaleString('en-US')}/s`);

function table(head, rows) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? '').length)));
  const line = (cells) =>
    cells.map((c, i) => (i < 2 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const results = [];
for (const file of files) {
  console.log(`\n──────── ${file} ────────`);
  results.push(await run(file));
}

console.log('\n════════ summary ════════');
const rows = [];
for (const r of results) {
  if (r.code !== 0) rows.push([r.file.replace('.bench.ts', ''), `CRASHED (exit ${r.code})`, '', '', '', '', '', '']);
  for (const f of r.figures) {
    const tail =
      f.p99_ms !== undefined ? `p99 ${fmtMs(f.p99_ms)}` : f.p95_ms !== undefined ? `p95 ${fmtMs(f.p95_ms)}` : '';
    const verdict = f.skipped ? `skipped: ${f.skipped}` : f.met === undefined ? '' : f.met ? 'met' : 'MISSED';
    rows.push([
      f.bench,
      f.name,
      f.skipped ? '—' : fmtMs(f.median_ms),
      tail,
      fmtRate(f.calls_per_s),
      fmtRatio(f.ratio),
      f.goal ?? '',
      verdict,
    ]);
  }
}
const head = ['bench', 'figure', 'median', 'tail', 'calls/s', 'vs baseline', 'goal', 'met?'];
console.log(table(head, rows));
if (markdown) {
  console.log(`\n| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`);
}
console.log(`\n${results.map((r) => `${r.file}: ${r.seconds.toFixed(0)} s`).join(', ')}`);
const missed = results.flatMap((r) => r.figures).filter((f) => f.met === false).length;
if (missed)
  console.log(`${missed} goal${missed > 1 ? 's' : ''} missed (reported, not failed: timing goals are not assertions).`);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
