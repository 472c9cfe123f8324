/**
 * A job (import, export) run in a process of its own, so its peak memory is that process's maxRSS,
 * with the job worker bundled from the current source (as a built app runs out/main/job-worker.js;
 * tsx's on-the-fly compiling would be timed too).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import esbuild from 'esbuild';
import { REPO_ROOT } from './harness';

const MB = 1024 * 1024;

/**
 * Bundled into this worktree's out/ (ignored by git): node_modules may be shared by several
 * worktrees, and a bundle there could be another worktree's source. better-sqlite3 stays external,
 * found through the worktree's node_modules.
 */
export function bundleWorker(): string {
  const outfile = path.join(REPO_ROOT, 'out/bench/job-worker.js');
  esbuild.buildSync({
    entryPoints: [path.join(REPO_ROOT, 'src/main/job-worker.ts')],
    ...{ bundle: true, platform: 'node', target: 'node20', format: 'cjs', external: ['better-sqlite3'] },
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

export type JobRun = { ms: number; cpuMs: number; maxRssMb: number; result: Record<string, unknown> };

/** Runs `script` (bench/lib/import-run.ts, export-run.ts) and answers the JSON line it prints last. */
export function runJobProcess(script: string, args: string[]): JobRun {
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * MB,
  });
  if (r.status !== 0) throw new Error(`${script} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as JobRun;
}
