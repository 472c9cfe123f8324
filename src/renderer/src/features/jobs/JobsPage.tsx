import { useEffect, useState } from 'react';
import type { Job } from '../../../../shared/contract/jobs.contract';
import { call, errorText, onEvent } from '../../api/client';
import { useAppStore } from '../../stores/app.store';

/** Background jobs with live progress; interrupted or cancelled ones resume where they stopped. */
export function JobsPage() {
  const [jobs, setJobs] = useState<Job[]>([]);
  const [error, setError] = useState<string | null>(null);
  const live = useAppStore((s) => s.jobs);
  useEffect(() => {
    const load = () => void call('jobs.list', { limit: 100 }).then(setJobs, (e) => setError(errorText(e)));
    load();
    return onEvent('table.changed', ({ table }) => table === 'jobs' && load());
  }, []);
  const act = (p: Promise<unknown>) => p.catch((e) => setError(errorText(e)));
  return (
    <section className="page">
      <h1>Jobs</h1>
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
      {jobs.length === 0 ? (
        <p className="hint">No jobs yet. “Generate grid…” on the coverage plan starts one.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Job</th>
              <th>State</th>
              <th>Progress</th>
              <th>Started</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {jobs.map((j) => {
              const p = live[j.id];
              const done = p?.done ?? j.done;
              const state = p?.state ?? j.state;
              return (
                <tr key={j.id}>
                  <td>
                    {j.name}
                    <div className="hint">{j.id.slice(0, 8)}</div>
                  </td>
                  <td>
                    {state}
                    {j.error && <div className="hint">{j.error}</div>}
                  </td>
                  <td>
                    <progress max={j.total || 1} value={done} /> {done} / {j.total}
                  </td>
                  <td>{j.created_at.replace('T', ' ').slice(0, 19)}</td>
                  <td>
                    {['queued', 'running'].includes(state) && (
                      <button type="button" onClick={() => act(call('jobs.cancel', { id: j.id }))}>
                        Cancel
                      </button>
                    )}
                    {['interrupted', 'failed', 'cancelled'].includes(state) && done < j.total && (
                      <button type="button" onClick={() => act(call('jobs.resume', { id: j.id }))}>
                        Resume
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
