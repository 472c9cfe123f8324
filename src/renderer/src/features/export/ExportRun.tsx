import { useEffect, useState } from 'react';
import type { JobName, JobResult } from '../../../../shared/contract/job-result';
import { call, errorText } from '../../api/client';
import { useJob } from '../../api/use-job';
import { ErrorNotice } from '../../components/ErrorNotice';

/**
 * The output folder, overwrite, and the export button: starts the export job, shows its progress
 * from job.progress events, a Cancel button while it runs, and what it wrote (or why not) at the end.
 */
export function ExportRun<N extends JobName>(props: {
  /** The export's job procedure: its result is read typed (jobResult). */
  job: N;
  defaultDir: string;
  disabled?: boolean;
  start(outDir: string, overwrite: boolean): Promise<{ jobId: string }>;
  describe(result: JobResult<N>): string;
}) {
  const [outDir, setOutDir] = useState(props.defaultDir);
  const [overwrite, setOverwrite] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const [startError, setError] = useState<string | null>(null);
  const { progress: live, running, outcome, error: readError, percent: pct } = useJob(jobId, props.job);
  const error = startError ?? readError;
  useEffect(() => setOutDir(props.defaultDir), [props.defaultDir]);
  const run = () => {
    setError(null);
    setJobId(null);
    props.start(outDir, overwrite).then(
      (r) => setJobId(r.jobId),
      (e) => setError(errorText(e)),
    );
  };
  return (
    <div className="export-run">
      <div className="toolbar">
        <label>
          Output folder{' '}
          <input
            aria-label="Output folder"
            className="export-dir"
            value={outDir}
            onChange={(e) => (setOutDir(e.target.value), setError(null))}
          />
        </label>
        {/* The core replaces only a previous export of this app; its refusal (what is in the way) shows below. */}
        <label title="Replaces only a previous export of this app: never a folder holding other files or the workspace">
          <input
            type="checkbox"
            checked={overwrite}
            onChange={(e) => (setOverwrite(e.target.checked), setError(null))}
          />{' '}
          Overwrite a previous export
        </label>
        <button type="button" onClick={run} disabled={props.disabled || running || !outDir.trim()}>
          Export
        </button>
        {running && jobId && (
          <button type="button" onClick={() => void call('jobs.cancel', { id: jobId })}>
            Cancel
          </button>
        )}
      </div>
      {running && (
        <p className="hint" data-testid="export-progress">
          <progress max={100} value={pct} /> {live?.message ?? 'starting…'} ({pct} %)
        </p>
      )}
      {outcome?.ok && (
        <p className="notice notice-info" role="status" data-testid="export-done">
          Export done: {props.describe(outcome.result)}
        </p>
      )}
      {outcome && !outcome.ok && (
        <p className="notice notice-error" role="alert">
          Export {outcome.reason}
        </p>
      )}
      <ErrorNotice error={error} onDismiss={() => setError(null)} />
    </div>
  );
}
