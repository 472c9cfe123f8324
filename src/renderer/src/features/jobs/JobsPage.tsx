import { useEffect, useState } from 'react';
import type { Job } from '../../../../shared/contract/jobs.contract';
import { call, errorText, onEvent } from '../../api/client';
import { navigate, type Route } from '../../router';
import { useAppStore } from '../../stores/app.store';

const FINAL = ['done', 'failed', 'cancelled', 'interrupted'];

/** "1 min 4 s" from the job's start to its end (or to now while it runs). */
export function duration(j: { state: string; created_at: string; updated_at: string }, now = Date.now()): string {
  const end = FINAL.includes(j.state) ? Date.parse(j.updated_at) : now;
  const s = Math.max(0, Math.round((end - Date.parse(j.created_at)) / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** The job's parameters, short: lists as their length past three items. */
export function params(input: unknown): string {
  if (!input || typeof input !== 'object') return '';
  return Object.entries(input as Record<string, unknown>)
    .filter(([k]) => k !== 'batchSize')
    .map(([k, v]) => {
      if (Array.isArray(v))
        return `${k}: ${
          v.length > 3 ? `${v.length} items` : v.map((x) => (Array.isArray(x) ? x.join('+') : String(x))).join(', ')
        }`;
      return `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`;
    })
    .join(' · ');
}

/** Where a finished job's result is seen. */
const resultLink = (j: Job): { route: Route; label: string } | null => {
  if (j.state !== 'done') return null;
  const r = (j.result ?? {}) as Record<string, number>;
  if (j.name === 'plan.generateGrid') return { route: { page: 'plan' }, label: `${r.added ?? 0} slots added → plan` };
  if (j.name === 'validation.run')
    return { route: { page: 'tasks' }, label: `${r.valid ?? 0} valid, ${r.invalid ?? 0} invalid → tasks` };
  return null;
};

/** Background jobs with live progress, parameters, duration and a link to what they made. */
export default function JobsPage() {
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
        <p className="hint">
          No jobs yet. “Generate grid…” on the coverage plan and “Validate” on the tasks start one.
        </p>
      ) : (
        <table className="table" data-testid="jobs-table">
          <thead>
            <tr>
              <th>Job</th>
              <th>Parameters</th>
              <th>State</th>
              <th>Progress</th>
              <th>Started</th>
              <th>Duration</th>
              <th>Result</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {jobs.map((j) => {
              const p = live[j.id];
              const done = p?.done ?? j.done;
              const state = p?.state ?? j.state;
              const link = resultLink(j);
              return (
                <tr key={j.id}>
                  <td>
                    {j.name}
                    <div className="hint">{j.id.slice(0, 8)}</div>
                  </td>
                  <td className="hint job-params">{params(j.input)}</td>
                  <td>
                    {state}
                    {j.error && <div className="hint">{j.error}</div>}
                  </td>
                  <td>
                    <progress max={j.total || 1} value={done} /> {done} / {j.total}
                  </td>
                  <td>{j.created_at.replace('T', ' ').slice(0, 19)}</td>
                  <td>{duration({ ...j, state })}</td>
                  <td>
                    {link && (
                      <button type="button" className="link-button" onClick={() => navigate(link.route)}>
                        {link.label}
                      </button>
                    )}
                  </td>
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
