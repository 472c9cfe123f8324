import { useLiveQuery } from '../api/use-live-query';
import { navigate } from '../router';

/**
 * Said plainly where imported Claw-Eval scores show (Tasks, Trajectories) while no upstream grader is usable: those
 * scores are the app's reading of task.yaml, not Claw-Eval's own grader.py. Nothing when no task was imported.
 */
export function UpstreamNotice() {
  const { data } = useLiveQuery('upstream.settings', {});
  if (!data || data.importedTasks === 0 || data.check?.usable) return null;
  const why = data.check?.missing ?? (data.root ? 'not checked yet' : 'no Claw-Eval checkout is set');
  return (
    <p className="notice notice-info" data-testid="upstream-notice">
      Imported Claw-Eval scores are the app's reading of task.yaml (its scoring components and safety checks), not
      Claw-Eval's own grader.py ({why}).{' '}
      <button type="button" className="link" onClick={() => navigate({ page: 'settings' })}>
        Set up the upstream grader
      </button>
    </p>
  );
}
