import { useEffect, useState } from 'react';
import type { JobName } from '../../../shared/contract/job-result';
import { useAppStore } from '../stores/app.store';
import { call, errorText } from './client';
import { isFinalState, jobOutcome, type JobOutcome } from './job-outcome';

/**
 * Follows one job of the `name` procedure: its progress from the store's job.progress events, then, once
 * a progress event says it ended, its final row fetched once and read through jobResult (typed, checked).
 * `jobId` null: no job yet. `running` holds from the job id until its outcome is known.
 */
export function useJob<N extends JobName>(jobId: string | null, name: N) {
  const progress = useAppStore((s) => (jobId ? s.jobs[jobId] : undefined));
  const [outcome, setOutcome] = useState<JobOutcome<N> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ended = !!progress && isFinalState(progress.state);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new job id starts from no outcome.
  useEffect(() => {
    setOutcome(null);
    setError(null);
  }, [jobId]);
  useEffect(() => {
    if (!jobId || !ended) return;
    let current = true;
    call('jobs.get', { id: jobId }).then(
      (j) => current && setOutcome(jobOutcome(j, name)),
      (e) => current && setError(errorText(e)),
    );
    return () => {
      current = false;
    };
  }, [jobId, ended, name]);

  return {
    progress,
    /** From the job id until its outcome (or the failure to read it) is known. */
    running: jobId !== null && outcome === null && error === null,
    outcome,
    /** Reading the final row failed (the job's own failure is in `outcome`). */
    error,
    percent: progress?.total ? Math.round((100 * progress.done) / progress.total) : 0,
  };
}
