/**
 * One import in a process of its own, so its peak memory (the job's worker thread included) is
 * the process's maxRSS:  node --import tsx bench/lib/import-run.ts <workspace> <file>
 * Prints one JSON line: {ms, maxRssMb, result}. The job worker (and its parse helper thread) run
 * the worker bundle the bench made with esbuild from the current source, as a built app runs
 * out/main/job-worker.js — not through tsx, whose on-the-fly compiling would be timed too.
 */
import path from 'node:path';
import { createCore } from '../../src/main/core';
import { REPO_ROOT } from './harness';

async function main() {
  const [workspace, file, workerEntry] = process.argv.slice(2);
  const core = createCore({
    workspacePath: workspace!,
    watchIntervalMs: 0,
    workerEntry: workerEntry ?? path.join(REPO_ROOT, 'test/helpers/ts-worker.cjs'),
  });
  const t0 = performance.now();
  const started = await core.dispatch('trajectories.import', { paths: [file!], collection: 'bench' });
  if (!started.ok) throw new Error(started.error.message);
  const jobId = (started.data as { jobId: string }).jobId;
  const done = await core.dispatch('jobs.wait', { id: jobId, timeoutMs: 3_600_000 });
  const ms = performance.now() - t0;
  if (!done.ok) throw new Error(done.error.message);
  const job = done.data as { state: string; error: string | null; result: unknown };
  if (job.state !== 'done') throw new Error(`import ${job.state}: ${job.error}`);
  await core.close();
  process.stdout.write(
    `${JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024, result: job.result })}\n`,
  );
}

void main();
