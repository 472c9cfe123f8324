/**
 * A separate process that imports (or resumes an import) into a workspace, for the kill -9 tests:
 *   node --import tsx test/helpers/import-child.ts <workspace> start <file>…   prints the job id, then waits
 *   node --import tsx test/helpers/import-child.ts <workspace> resume <jobId>   resumes the job, then waits
 * The test kills it with SIGKILL at some point; the job runs in this process's worker thread.
 */
import { createCore } from '../../src/main/core';
import { TS_WORKER } from './test-core';

async function main() {
  const [workspace, mode, ...rest] = process.argv.slice(2);
  const core = createCore({ workspacePath: workspace!, watchIntervalMs: 0, ...TS_WORKER });
  const started =
    mode === 'start'
      ? await core.dispatch('trajectories.import', { paths: rest, collection: 'killed' })
      : await core.dispatch('jobs.resume', { id: rest[0] });
  if (!started.ok) throw new Error(JSON.stringify(started.error));
  const jobId = (started.data as { jobId: string }).jobId;
  process.stdout.write(`${jobId}\n`);
  const done = await core.dispatch('jobs.wait', { id: jobId, timeoutMs: 600_000 });
  process.stdout.write(`${JSON.stringify(done)}\n`);
  await core.close();
}

void main();
