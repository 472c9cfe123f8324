import { useState } from 'react';
import { call, errorText } from '../../api/client';
import { useJob } from '../../api/use-job';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { Notice } from '../../grids/StatusBar';
import type { ServerGrid } from '../../grids/use-server-grid';

type Pending = { ids: number[]; what: string };

/**
 * Trajectories → Grade with upstream grader.py (issue 19 item 6): the ticked rows, or every row under the filter,
 * graded by their task's own grader.py as a job (progress, cancel), with the judge of Settings → Judge passed
 * through. The scores land in the grid's Upstream columns; each failure is listed with its file and reason.
 */
export function UpstreamGrade({
  grid,
  matchingIds,
  filtered,
  onNotice,
}: {
  grid: ServerGrid<'trajectories.list', number>;
  matchingIds(): Promise<{ ids: number[]; total: number }>;
  filtered: boolean;
  onNotice(n: Notice | null): void;
}) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [timeout, setTimeoutSeconds] = useState(60);
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { progress, running, outcome, percent } = useJob(jobId, 'upstream.grade');
  const result = outcome?.ok ? outcome.result : null;

  const ask = async () => {
    onNotice(null);
    const selected = grid.selectedIds();
    if (selected.length) return setPending({ ids: selected, what: 'selected' });
    try {
      const r = await matchingIds();
      if (r.total > r.ids.length)
        return onNotice({ kind: 'error', text: `${r.total} match: narrow the filter below ${r.ids.length}` });
      if (!r.ids.length) return onNotice({ kind: 'info', text: 'No trajectory matches the filter' });
      setPending({ ids: r.ids, what: filtered ? 'matching the filter' : 'in the workspace (no filter)' });
    } catch (e) {
      onNotice({ kind: 'error', text: errorText(e) });
    }
  };
  const start = async () => {
    if (!pending) return;
    setError(null);
    try {
      setJobId((await call('upstream.grade', { ids: pending.ids, timeoutSeconds: timeout })).jobId);
    } catch (e) {
      setError(errorText(e));
    }
  };
  const close = () => {
    setPending(null);
    setJobId(null);
    setError(null);
  };
  const n = pending?.ids.length ?? 0;
  return (
    <>
      <button type="button" onClick={() => void ask()} data-testid="upstream-grade">
        Grade with upstream grader.py{grid.selectedCount ? ` (${grid.selectedCount})` : filtered ? ' (matching)' : ''}
      </button>
      {pending && (
        <Dialog label="Grade with upstream grader.py" onClose={close}>
          <h2>Grade with upstream grader.py</h2>
          <p data-testid="upstream-grade-count">
            {n} trajector{n === 1 ? 'y' : 'ies'} {pending.what}, each by its task's own grader.py from the checkout of
            Settings → Upstream grader, with the judge of Settings → Judge (its key stays in the environment).
          </p>
          <p className="hint">
            Every grading is kept beside the app's grade; a trace grader.py cannot grade is listed with its file and
            reason, never counted as 0.
          </p>
          <label>
            Time limit per trace (seconds){' '}
            <input
              type="number"
              min={1}
              max={600}
              value={timeout}
              onChange={(e) => setTimeoutSeconds(Math.max(1, Math.min(600, Number(e.target.value) || 60)))}
              disabled={jobId !== null}
            />
          </label>
          <ErrorNotice error={error} onDismiss={() => setError(null)} />
          {jobId && !outcome && (
            <p className="hint" data-testid="upstream-grade-progress">
              <progress max={100} value={percent} /> {progress?.message ?? 'starting…'} ({percent} %)
            </p>
          )}
          {outcome && !outcome.ok && <p className="notice notice-error">Stopped: {outcome.reason}</p>}
          {result && (
            <div data-testid="upstream-grade-result">
              <p>
                {result.graded} graded by grader.py (judge {result.judge}): {result.agreed} agree with the app's
                pass/fail, {result.disagreed} disagree
                {result.appPending ? `, ${result.appPending} wait for the app's judge` : ''}; {result.failed} failed.
              </p>
              {result.errors.length > 0 && (
                <ul className="upstream-errors" data-testid="upstream-grade-errors">
                  {result.errors.map((e) => (
                    <li key={e.id}>
                      #{e.id} {e.taskId}: <code>{e.error}</code>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <div className="dialog-actions">
            {running ? (
              <button
                type="button"
                onClick={() => jobId && void call('jobs.cancel', { id: jobId })}
                data-testid="upstream-grade-cancel"
              >
                Cancel job
              </button>
            ) : (
              !jobId && (
                <button type="button" onClick={() => void start()} data-testid="upstream-grade-start">
                  Grade {n}
                </button>
              )
            )}
            <button type="button" onClick={close}>
              Close
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}
