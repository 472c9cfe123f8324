import type { Core } from '../../src/main/core';

/**
 * Starts a job procedure, waits for it, closes the core and prints the one JSON line the bench
 * reads from a process of its own: {ms, maxRssMb, result} (maxRSS includes the job's threads).
 */
export async function printTimedJob(core: Core, procedure: string, input: unknown): Promise<void> {
  const t0 = performance.now();
  const started = await core.dispatch(procedure as never, input as never);
  if (!started.ok) throw new Error(started.error.message);
  const jobId = (started.data as { jobId: string }).jobId;
  const done = await core.dispatch('jobs.wait', { id: jobId, timeoutMs: 3_600_000 });
  const ms = performance.now() - t0;
  if (!done.ok) throw new Error(done.error.message);
  const job = done.data as { state: string; error: string | null; result: unknown };
  if (job.state !== 'done') throw new Error(`${procedure} ${job.state}: ${job.error}`);
  await core.close();
  process.stdout.write(
    `${JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024, result: job.result })}\n`,
  );
}
