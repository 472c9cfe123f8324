import type { RunRow } from '../../../../shared/contract/entities/run';
import { call } from '../../api/client';
import { navigate } from '../../router';
import { useAppStore } from '../../stores/app.store';
import { f4 } from './format';

const ACTIVE = ['pending', 'queued', 'running'];
const RESUMABLE = ['cancelled', 'failed', 'interrupted'];

/**
 * The agent runs, newest first, with the live progress of the running ones (job.progress), Cancel
 * while one runs, Resume after a cancel, a failure or a crash (the run goes on with the pairs not
 * yet stored, as `coworkenv run --resume`), and the report.
 */
export function RunsTable({
  rows,
  openId,
  onError,
}: {
  rows: RunRow[];
  openId: number | null;
  onError(p: Promise<unknown>): void;
}) {
  const live = useAppStore((s) => s.jobs);
  return (
    <table className="table" data-testid="runs-table">
      <thead>
        <tr>
          <th>Run</th>
          <th>Agent</th>
          <th>Collection</th>
          <th>Trials</th>
          <th>State</th>
          <th>Progress</th>
          <th>Passed</th>
          <th>Mean score</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const p = r.job_id ? live[r.job_id] : undefined;
          // A progress event is newer than the row until the row is read again after the job ends.
          const state = p && ACTIVE.includes(r.state) ? p.state : r.state;
          const done = p && ACTIVE.includes(r.state) ? p.done : r.trajectories;
          return (
            <tr key={r.id} className={r.id === openId ? 'selected' : ''} data-testid={`run-${r.id}`}>
              <td>
                {r.id}: {r.name}
                <div className="hint">{r.created_at.replace('T', ' ').slice(0, 19)}</div>
              </td>
              <td>
                {r.agent_label}
                <div className="hint">{r.user_simulator}</div>
              </td>
              <td>{r.collection}</td>
              <td>{r.trials}</td>
              <td data-testid="run-state">
                {state}
                {r.error && <div className="hint">{r.error}</div>}
              </td>
              <td>
                <progress max={r.planned || 1} value={done} /> {done} / {r.planned}
                {p && ACTIVE.includes(state) && <div className="hint">{p.message}</div>}
              </td>
              <td data-testid="run-passed">
                {r.trajectories ? `${r.passed} / ${r.trajectories - r.judge_pending}` : '–'}
                {r.judge_pending > 0 && <div className="hint">{r.judge_pending} judge pending</div>}
              </td>
              <td>{f4(r.mean_score)}</td>
              <td className="row-actions">
                <button type="button" onClick={() => navigate({ page: 'runs', runId: r.id })}>
                  Report
                </button>
                {r.job_id && ACTIVE.includes(state) && (
                  <button type="button" onClick={() => onError(call('jobs.cancel', { id: r.job_id! }))}>
                    Cancel
                  </button>
                )}
                {r.job_id && RESUMABLE.includes(state) && (
                  <button type="button" onClick={() => onError(call('jobs.resume', { id: r.job_id! }))}>
                    Resume
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
