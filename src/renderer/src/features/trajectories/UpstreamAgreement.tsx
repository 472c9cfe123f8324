import { useLiveQuery } from '../../api/use-live-query';

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : '—');

/**
 * Agreement with upstream per task: of the trajectories graded by the task's own grader.py (their latest grading),
 * how many agree with the app's current pass/fail, how many disagree, failed upstream or wait for the app's judge.
 * The same expression as the grid's "Agrees with upstream" column (upstream-columns.ts).
 */
export function UpstreamAgreement({ onClose }: { onClose(): void }) {
  const { data, error } = useLiveQuery('upstream.agreement', {});
  const rows = data?.tasks ?? [];
  const sum = rows.reduce(
    (s, r) => ({ agree: s.agree + r.agree, disagree: s.disagree + r.disagree, graded: s.graded + r.graded }),
    { agree: 0, disagree: 0, graded: 0 },
  );
  return (
    <div className="upstream-agreement" data-testid="upstream-agreement">
      <div className="toolbar">
        <h2 className="section-title">Agreement with upstream grader.py, per task</h2>
        <span className="sep" />
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {error && <p className="notice notice-error">{error}</p>}
      {data && rows.length === 0 && (
        <p className="hint">
          No trajectory was graded with upstream's grader.py yet: tick some and press “Grade with upstream grader.py”.
        </p>
      )}
      {rows.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th>Task</th>
              <th>Graded upstream</th>
              <th>Agree</th>
              <th>Disagree</th>
              <th>Agreement</th>
              <th>Upstream failed</th>
              <th>App judge pending</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.taskId} data-testid={`agreement-${r.taskId}`}>
                <td>{r.taskId}</td>
                <td>{r.graded}</td>
                <td>{r.agree}</td>
                <td className={r.disagree ? 'status-cell status-warn' : ''}>{r.disagree}</td>
                <td>{pct(r.agree, r.agree + r.disagree)}</td>
                <td className={r.failed ? 'status-cell status-invalid' : ''}>{r.failed}</td>
                <td>{r.appPending}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <td>All tasks</td>
              <td>{sum.graded}</td>
              <td>{sum.agree}</td>
              <td>{sum.disagree}</td>
              <td data-testid="agreement-total">{pct(sum.agree, sum.agree + sum.disagree)}</td>
              <td colSpan={2} />
            </tr>
          </tfoot>
        </table>
      )}
    </div>
  );
}
