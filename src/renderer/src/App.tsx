import { lazy, Suspense, useEffect } from 'react';
import { call, errorText, onEvent } from './api/client';
import { SessionExpired, useSessionProblem } from './components/SessionExpired';
import { navigate, useRoute, type Page } from './router';
import { useAppStore } from './stores/app.store';

// One chunk per page: the plan's first rows need neither the tasks page nor the jobs page.
const CoveragePlanPage = lazy(() => import('./features/plan/CoveragePlanPage'));
const TasksPage = lazy(() => import('./features/tasks/TasksPage'));
const RunsPage = lazy(() => import('./features/runs/RunsPage'));
const TrajectoriesPage = lazy(() => import('./features/trajectories/TrajectoriesPage'));
const ExportPage = lazy(() => import('./features/export/ExportPage'));
const CurationPage = lazy(() => import('./features/curation/CurationPage'));
const JobsPage = lazy(() => import('./features/jobs/JobsPage'));
const WorkspacePage = lazy(() => import('./features/workspace/WorkspacePage'));
const SettingsPage = lazy(() => import('./features/settings/SettingsPage'));

/** Only pages that work are listed; later features add theirs here. */
const PAGES: { id: Page; label: string }[] = [
  { id: 'plan', label: 'Coverage plan' },
  { id: 'tasks', label: 'Tasks' },
  { id: 'runs', label: 'Runs' },
  { id: 'trajectories', label: 'Trajectories' },
  { id: 'curation', label: 'Curation' },
  { id: 'export', label: 'Export' },
  { id: 'jobs', label: 'Jobs' },
  { id: 'workspace', label: 'Workspace' },
  { id: 'settings', label: 'Settings' },
];

export function App() {
  const route = useRoute();
  const { workspace, setWorkspace, jobProgress } = useAppStore();
  const session = useSessionProblem();
  useEffect(() => onEvent('job.progress', jobProgress), [jobProgress]);
  // The first page gets its URL too, so Back from another page returns to it.
  useEffect(() => {
    if (!window.location.hash.startsWith('#/')) navigate(route, true);
  }, [route]);
  useEffect(() => {
    call('workspace.info', {}).then(
      (i) => setWorkspace(i.path),
      (e) => setWorkspace(`unknown (${errorText(e)})`),
    );
  }, [setWorkspace]);
  return (
    <div className="shell">
      <nav className="nav" aria-label="Main">
        <div className="brand">CoworkEnv Studio</div>
        {PAGES.map((p) => (
          <button
            type="button"
            key={p.id}
            className={p.id === route.page ? 'active' : ''}
            aria-current={p.id === route.page ? 'page' : undefined}
            onClick={() => navigate({ page: p.id })}
          >
            {p.label}
          </button>
        ))}
      </nav>
      <main className="main">
        {session && <SessionExpired problem={session} />}
        {!session && (
          <Suspense fallback={<p className="page hint">Loading…</p>}>
            {route.page === 'plan' && workspace && <CoveragePlanPage workspace={workspace} />}
            {route.page === 'tasks' && workspace && <TasksPage workspace={workspace} taskId={route.taskId ?? null} />}
            {route.page === 'runs' && workspace && <RunsPage workspace={workspace} route={route} />}
            {route.page === 'trajectories' && workspace && <TrajectoriesPage workspace={workspace} route={route} />}
            {route.page === 'curation' && workspace && <CurationPage workspace={workspace} />}
            {route.page === 'export' && <ExportPage />}
            {route.page === 'jobs' && <JobsPage />}
            {route.page === 'workspace' && <WorkspacePage />}
            {route.page === 'settings' && <SettingsPage />}
          </Suspense>
        )}
      </main>
    </div>
  );
}
