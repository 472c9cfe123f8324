/**
 * One SFT export of a workspace in a process of its own (peak memory = its maxRSS):
 *   node --import tsx bench/lib/export-run.ts <workspace> <outDir> <dialect> <workerEntry>
 * Prints one JSON line: {ms, maxRssMb, result}. Every stored trajectory is admitted (nothing is curated).
 */
import { createCore } from '../../src/main/core';

async function main() {
  const [workspace, outDir, dialect, workerEntry] = process.argv.slice(2);
  const core = createCore({ workspacePath: workspace!, watchIntervalMs: 0, workerEntry: workerEntry! });
  const t0 = performance.now();
  const started = await core.dispatch('export.sft', {
    dialect: dialect as 'trl',
    outDir: outDir!,
    selection: { allUncurated: true },
  });
  if (!started.ok) throw new Error(started.error.message);
  const jobId = (started.data as { jobId: string }).jobId;
  const done = await core.dispatch('jobs.wait', { id: jobId, timeoutMs: 3_600_000 });
  const ms = performance.now() - t0;
  if (!done.ok) throw new Error(done.error.message);
  const job = done.data as { state: string; error: string | null; result: unknown };
  if (job.state !== 'done') throw new Error(`export ${job.state}: ${job.error}`);
  await core.close();
  process.stdout.write(
    `${JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024, result: job.result })}\n`,
  );
}

void main();
