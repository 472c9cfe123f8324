import type { ApiResult } from '../../../shared/contract';
import type { Job } from '../../../shared/contract/jobs.contract';
import type { Core } from '../../core';
import type { CliIo } from './command';

/**
 * Prints a job's progress to stderr until it ends and answers its final row. The job runs in this
 * process's worker thread, so the CLI must stay until it ends; Ctrl+C cancels it (committed
 * batches stay, and the message says how to resume).
 */
export async function followJob(core: Core, io: CliIo, jobId: string): Promise<Job> {
  let last = '';
  const off = core.events.on((e) => {
    if (e.event !== 'job.progress' || e.payload.jobId !== jobId) return;
    const line = `${e.payload.state}: ${e.payload.message} (${e.payload.done}/${e.payload.total})`;
    if (line !== last) io.stderr(`job ${jobId.slice(0, 8)} ${(last = line)}\n`);
  });
  let stopped = false;
  void io.untilStopped?.().then(() => {
    stopped = true;
    void core.dispatch('jobs.cancel', { id: jobId });
  });
  // jobs.wait caps one wait at an hour; a longer job is waited for again until it ends.
  const wait = () => core.dispatch('jobs.wait', { id: jobId, timeoutMs: 3_600_000 }) as Promise<ApiResult<Job>>;
  let r = await wait();
  while (r.ok && ['queued', 'running'].includes(r.data.state)) r = await wait();
  off();
  if (stopped)
    io.stderr(`job ${jobId} cancelled; \`coworkenv call jobs.resume --input '{"id":"${jobId}"}'\` continues it\n`);
  if (!r.ok) throw new Error(`job ${jobId}: ${r.error.message}`);
  if (r.data.state === 'failed' && r.data.error) io.stderr(`job ${jobId.slice(0, 8)} failed: ${r.data.error}\n`);
  return r.data;
}
