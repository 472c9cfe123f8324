/**
 * A separate process that imports (or resumes an import) into a workspace, for the kill -9 tests:
 *   node --import tsx test/helpers/import-child.ts <workspace> <killAt> start <file>…   prints the job id, then waits
 *   node --import tsx test/helpers/import-child.ts <workspace> <killAt> resume <jobId>   resumes the job, then waits
 * The job runs in this process's worker thread. Once a committed batch brings the run's records to `killAt` or more,
 * the process sends itself SIGKILL, whatever the worker is doing at that moment. The kill follows the job's own
 * progress event, not a parent polling the file on a timer: on a busy machine a poll may come too late (the job has
 * finished: no kill) and costs the CPU the job needs. `killAt` 0: never killed.
 */
import Database from 'better-sqlite3';
import { createCore } from '../../src/main/core';
import { TS_WORKER } from './test-core';

async function main() {
  const [workspace, killAt, mode, ...rest] = process.argv.slice(2);
  const target = Number(killAt);
  const core = createCore({ workspacePath: workspace!, watchIntervalMs: 0, ...TS_WORKER });
  const probe = new Database(workspace!, { readonly: true });
  const records = probe.prepare('SELECT coalesce(sum(records), 0) AS n FROM run_files');
  let jobId = '';
  core.events.on((e) => {
    if (!target || e.event !== 'job.progress' || e.payload.jobId !== jobId) return;
    if ((records.get() as { n: number }).n >= target) process.kill(process.pid, 'SIGKILL');
  });
  const started =
    mode === 'start'
      ? await core.dispatch('trajectories.import', { paths: rest, collection: 'killed' })
      : await core.dispatch('jobs.resume', { id: rest[0] });
  if (!started.ok) throw new Error(JSON.stringify(started.error));
  jobId = (started.data as { jobId: string }).jobId;
  process.stdout.write(`${jobId}\n`);
  const done = await core.dispatch('jobs.wait', { id: jobId, timeoutMs: 600_000 });
  process.stdout.write(`${JSON.stringify(done)}\n`);
  probe.close();
  await core.close();
}

void main();
