import { useEffect, useState } from 'react';
import type { RunRow } from '../../../../shared/contract/entities/run';
import { call, errorText, onEvent } from '../../api/client';
import { navigate, type Route } from '../../router';
import { RunCompare } from './RunCompare';
import { RunReport } from './RunReport';
import { RunStartForm } from './RunStartForm';
import { RunsTable } from './RunsTable';
import './runs.css';
import { ErrorNotice } from '../../components/ErrorNotice';

/**
 * Runs: start an agent run on tasks (the same options as `coworkenv run`), follow it live, cancel
 * and resume it, and read its report (#/runs/<id>) or compare two runs, teacher and student
 * (#/runs/<id>/compare/<other>).
 */
export default function RunsPage({ workspace, route }: { workspace: string; route: Route }) {
  const [rows, setRows] = useState<RunRow[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [showForm, setShowForm] = useState(false);
  useEffect(() => {
    let first = true;
    // The form opens by itself only on a first visit without runs (a later reload must not reopen it).
    const load = () =>
      void call('runs.list', { kind: 'run', limit: 200 }).then(
        (r) => (setRows(r.rows), first && r.total === 0 && setShowForm(true), (first = false)),
        (e) => setError(errorText(e)),
      );
    load();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onEvent('table.changed', ({ table }) => {
      if (table !== 'runs' && table !== 'jobs') return;
      clearTimeout(timer);
      timer = setTimeout(load, 100);
    });
    return () => (clearTimeout(timer), off());
  }, []);
  // The page stays mounted from the list to a report and back: a message belongs to the view it was shown in.
  const view = `${route.runId}/${route.compareId}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: clear on each change of view
  useEffect(() => setError(null), [view]);
  const act = (p: Promise<unknown>) =>
    void p.then(
      () => setError(null),
      (e) => setError(errorText(e)),
    );
  const { runId, compareId } = route;
  const others = rows.filter((r) => r.id !== runId);
  const compareWith = runId !== undefined && others.length > 0 && (
    <label>
      Compare with{' '}
      <select
        aria-label="Compare with"
        value=""
        onChange={(e) => e.target.value && navigate({ page: 'runs', runId, compareId: Number(e.target.value) })}
      >
        <option value="">another run (student)…</option>
        {others.map((r) => (
          <option key={r.id} value={r.id}>
            {r.id}: {r.name}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <section className="page runs-page">
      <header className="page-head toolbar">
        <h1>Runs</h1>
        <button type="button" onClick={() => setShowForm((s) => !s)} aria-expanded={showForm}>
          {showForm ? 'Hide new run' : 'New run…'}
        </button>
      </header>
      <ErrorNotice error={error} onDismiss={() => setError(null)} />
      {showForm && <RunStartForm workspace={workspace} onStarted={() => (setShowForm(false), setError(null))} />}
      {rows.length === 0 ? (
        <p className="hint" data-testid="runs-empty">
          No runs yet. Start one above (or with <code>coworkenv run</code>): each trajectory is graded and stored as it
          finishes.
        </p>
      ) : (
        <RunsTable rows={rows} openId={runId ?? null} onError={act} />
      )}
      {runId !== undefined && compareId !== undefined && <RunCompare teacher={runId} student={compareId} />}
      {runId !== undefined && compareId === undefined && (
        <RunReport key={runId} runId={runId} compareWith={compareWith} />
      )}
    </section>
  );
}
