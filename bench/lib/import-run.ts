/**
 * One import in a process of its own, so its peak memory (the job's worker thread included) is
 * the process's maxRSS:  node --import tsx bench/lib/import-run.ts <workspace> <file>
 * Prints one JSON line: {ms, maxRssMb, result}. The job worker (and its parse helper thread) run
 * the worker bundle the bench made with esbuild from the current source, as a built app runs
 * out/main/job-worker.js — not through tsx, whose on-the-fly compiling would be timed too.
 */
import path from 'node:path';
import { createCore } from '../../src/main/core';
import { printTimedJob } from './timed-job';
import { REPO_ROOT } from './harness';

async function main() {
  const [workspace, file, workerEntry] = process.argv.slice(2);
  const core = createCore({
    workspacePath: workspace!,
    watchIntervalMs: 0,
    workerEntry: workerEntry ?? path.join(REPO_ROOT, 'test/helpers/ts-worker.cjs'),
  });
  await printTimedJob(core, 'trajectories.import', { paths: [file!], collection: 'bench' });
}

void main();
