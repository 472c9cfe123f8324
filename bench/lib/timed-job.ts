import type { Core } from '../../src/main/core';

/**
 * Starts a job procedure, waits for it, closes the core and prints the one JSON line the bench
 * reads from a process of its own: {ms, cpuMs, maxRssMb, result} (maxRSS and CPU time, user + system,
 * include the job's threads; CPU time compares runs on a loaded machine, where wall time mostly waits).
 */
export async function printTimedJob(core: Core, procedure: string, input: unknown): Promise<void> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const started = await core.dispatch(procedure as never, input as never);
  if (!started.ok) throw new Error(started.error.message);
  const jobId = (started.data as { jobId: string }).jobId;
  const done = await core.dispatch('jobs.wait', { id: jobId, timeoutMs: 3_600_000 });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (!done.ok) throw new Error(done.error.message);
  const job = done.data as { state: string; error: string | null; result: unknown };
  if (job.state !== 'done') throw new Error(`${procedure} ${job.state}: ${job.error}`);
  await core.close();
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  process.stdout.write(`${JSON.stringify({ ms, cpuMs, maxRssMb, result: job.result })}\n`);
}
