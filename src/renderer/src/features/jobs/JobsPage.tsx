import { useEffect, useState } from 'react';
import type { Job } from '../../../../shared/contract/jobs.contract';
import { call, errorText, onEvent } from '../../api/client';
import { navigate, type Route } from '../../router';
import { useAppStore } from '../../stores/app.store';
import { ErrorNotice } from '../../components/ErrorNotice';

const FINAL = ['done', 'failed', 'cancelled', 'interrupted'];

/** "1 min 4 s" from the job's start to its end (or to now while it runs). */
export function duration(j: { state: string; created_at: string; updated_at: string }, now = Date.now()): string {
  const end = FINAL.includes(j.state) ? Date.parse(j.updated_at) : now;
  const s = Math.max(0, Math.round((end - Date.parse(j.created_at)) / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** One parameter value, short: scalars as they are, lists of names joined (their length past three). */
function shortValue(v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v !== 'object') return String(v);
  if (!Array.isArray(v)) return null; // nested settings: in the full parameters below
  if (!v.length) return null;
  if (v.length > 3) return `${v.length} items`;
  // Files and similar entries name themselves by a path or a name.
  const label = (x: unknown) =>
    Array.isArray(x)
      ? x.join('+')
      : x && typeof x === 'object'
        ? String((x as { path?: unknown; name?: unknown }).path ?? (x as { name?: unknown }).name ?? '…')
            .split('/')
            .pop()
        : String(x);
  return v.map(label).join(', ');
}

/** The job's parameters, short: its name first, then the scalar and list ones; nested settings are left out. */
export function params(input: unknown): string {
  if (!input || typeof input !== 'object') return '';
  const { name, ...rest } = input as Record<string, unknown>;
  const parts = Object.entries(rest)
    .filter(([k]) => k !== 'batchSize')
    .flatMap(([k, v]) => {
      const text = shortValue(v);
      return text === null ? [] : [`${k}: ${text}`];
    });
  return [typeof name === 'string' ? name : null, ...parts].filter(Boolean).join(' · ');
}

type Link = { route: Route; label: string } | { path: string; label: string };

/** Where a finished job's result is seen: a page of the app, or the folder an export wrote. */
const resultLink = (j: Job): Link | null => {
  if (j.state !== 'done') return null;
  const r = (j.result ?? {}) as Record<string, number> & { outDir?: string };
  switch (j.name) {
    case 'plan.generateGrid':
      return { route: { page: 'plan' }, label: `${r.added ?? 0} slots added → plan` };
    case 'validation.run':
      return { route: { page: 'tasks' }, label: `${r.valid ?? 0} valid, ${r.invalid ?? 0} invalid → tasks` };
    case 'generation.run':
      return { route: { page: 'tasks' }, label: `${(r.validFirstTime ?? 0) + (r.repaired ?? 0)} tasks → tasks` };
    case 'runs.start':
      return {
        route: { page: 'trajectories' },
        label: `${r.stored ?? 0} stored, pass ${Math.round((r.pass_rate ?? 0) * 100)} % → trajectories`,
      };
    case 'trajectories.import':
      return { route: { page: 'trajectories' }, label: `${r.stored ?? 0} stored → trajectories` };
    case 'upstream.grade':
      return {
        route: { page: 'trajectories' },
        label: `${r.graded ?? 0} graded by grader.py, ${r.agreed ?? 0} agree, ${r.failed ?? 0} failed → trajectories`,
      };
    case 'grading.regradeJob':
      return {
        route: { page: 'trajectories' },
        label: `${r.regraded ?? 0} re-graded, ${r.pending ?? 0} judge pending → trajectories`,
      };
    default:
      return r.outDir ? { path: r.outDir, label: r.outDir } : null;
  }
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
  // The next action that works takes the last failure's message away.
  const act = (p: Promise<unknown>) =>
    p.then(
      () => setError(null),
      (e) => setError(errorText(e)),
    );
  return (
    <section className="page">
      <h1>Jobs</h1>
      <ErrorNotice error={error} onDismiss={() => setError(null)} />
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
                  <td className="hint job-params">
                    {params(j.input)}
                    <details>
                      <summary>all parameters</summary>
                      <pre>{JSON.stringify(j.input, null, 2)}</pre>
                    </details>
                  </td>
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
                    {link && 'route' in link && (
                      <button type="button" className="link-button" onClick={() => navigate(link.route)}>
                        {link.label}
                      </button>
                    )}
                    {link && 'path' in link && <code title="the folder the export wrote">{link.path}</code>}
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
