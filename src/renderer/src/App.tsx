import { useEffect } from 'react';
import { onEvent } from './api/client';
import { JobsPage } from './features/jobs/JobsPage';
import { SettingsPage } from './features/settings/SettingsPage';
import { CoveragePlanPage } from './features/plan/CoveragePlanPage';
import { TasksPage } from './features/tasks/TasksPage';
import { WorkspacePage } from './features/workspace/WorkspacePage';
import { useAppStore, type Page } from './stores/app.store';

/** Only pages that work are listed; later features add theirs here. */
const PAGES: { id: Page; label: string }[] = [
  { id: 'plan', label: 'Coverage plan' },
  { id: 'tasks', label: 'Tasks' },
  { id: 'jobs', label: 'Jobs' },
  { id: 'workspace', label: 'Workspace' },
  { id: 'settings', label: 'Settings' },
];

export function App() {
  const { page, go, jobProgress } = useAppStore();
  useEffect(() => onEvent('job.progress', jobProgress), [jobProgress]);
  return (
    <div className="shell">
      <nav className="nav" aria-label="Main">
        <div className="brand">CoworkEnv Studio</div>
        {PAGES.map((p) => (
          <button
            type="button"
            key={p.id}
            className={p.id === page ? 'active' : ''}
            aria-current={p.id === page ? 'page' : undefined}
            onClick={() => go(p.id)}
          >
            {p.label}
          </button>
        ))}
      </nav>
      <main className="main">
        {page === 'plan' && <CoveragePlanPage />}
        {page === 'tasks' && <TasksPage />}
        {page === 'jobs' && <JobsPage />}
        {page === 'workspace' && <WorkspacePage />}
        {page === 'settings' && <SettingsPage />}
      </main>
    </div>
  );
}
