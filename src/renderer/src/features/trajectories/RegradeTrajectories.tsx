import { useEffect, useState } from 'react';
import { call, errorText } from '../../api/client';
import { useJob } from '../../api/use-job';
import { useLiveQuery } from '../../api/use-live-query';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { Notice } from '../../grids/StatusBar';
import type { ServerGrid } from '../../grids/use-server-grid';
import { navigate } from '../../router';
import { needsConfirmation, regradeOutcome } from './regrade-text';

type Pending = { ids: number[]; what: string };

/** Whether a judge is set (else judge checks stay pending), with a way to Settings → Judge when none is. */
function JudgeState({ onSettings }: { onSettings(): void }) {
  const { data } = useLiveQuery('grading.judgeSettings', {});
  if (!data) return null;
  if (data.endpoint && !data.missing)
    return (
      <p className="hint" data-testid="regrade-judge">
        Judge: {data.endpoint} (model {data.model}), {data.cached} answer{data.cached === 1 ? '' : 's'} cached. Only
        requests not in the cache are sent.
      </p>
    );
  return (
    <p className="notice notice-info" data-testid="regrade-judge">
      {data.missing ? `The judge endpoint ${data.endpoint} was removed` : 'No judge is set'}: llm_judge checks and
      judged safety rules stay “judge pending” (never counted 0).{' '}
      <button type="button" className="link" onClick={onSettings} data-testid="regrade-judge-settings">
        Set one in Settings → Judge
      </button>
    </p>
  );
}

/**
 * Trajectories → Re-grade… (issue 19 item 2): the ticked rows, or every row under the filter, graded again by the
 * shared grader as a job (grading.regradeJob), asking the judge of Settings → Judge what its cache lacks. Only the
 * app's grade changes; the outcome says what was asked and what stays pending, and the grid follows.
 */
export function RegradeTrajectories({
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
  const [confirmed, setConfirmed] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { progress, running, outcome, percent } = useJob(jobId, 'grading.regradeJob');
  const result = outcome?.ok ? outcome.result : null;
  const { refresh } = grid;
  // The grid also follows the table's change events; once more at the end, so the last batch is surely shown.
  useEffect(() => {
    if (outcome) refresh();
  }, [outcome, refresh]);

  const ask = async () => {
    onNotice(null);
    setConfirmed(false);
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
      setJobId((await call('grading.regradeJob', { ids: pending.ids })).jobId);
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
  const needsConfirm = needsConfirmation(n);
  return (
    <>
      <button type="button" onClick={() => void ask()} data-testid="regrade-open">
        Re-grade{grid.selectedCount ? ` (${grid.selectedCount})` : filtered ? ' matching' : ''}…
      </button>
      {pending && (
        <Dialog label="Re-grade trajectories" onClose={close}>
          <h2>Re-grade trajectories</h2>
          <p data-testid="regrade-count">
            Re-grade {n} trajector{n === 1 ? 'y' : 'ies'} {pending.what} with the shared grader. Only the app's grade
            changes, never the score of record; ungraded rows (external tasks) are skipped.
          </p>
          <JudgeState
            onSettings={() => {
              close();
              navigate({ page: 'settings' });
            }}
          />
          {needsConfirm && !jobId && (
            <label data-testid="regrade-confirm">
              <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} /> Yes,
              re-grade all {n} (each judge request not cached is sent to the endpoint)
            </label>
          )}
          <ErrorNotice error={error} onDismiss={() => setError(null)} />
          {jobId && !outcome && (
            <p className="hint" data-testid="regrade-progress">
              <progress max={100} value={percent} /> {progress?.message ?? 'starting…'} ({percent} %)
            </p>
          )}
          {outcome && !outcome.ok && <p className="notice notice-error">Stopped: {outcome.reason}</p>}
          {result && (
            <div data-testid="regrade-result">
              <p>{regradeOutcome(result)}</p>
              {result.judge.problems.length > 0 && (
                <ul className="upstream-errors" data-testid="regrade-problems">
                  {result.judge.problems.slice(0, 10).map((p) => (
                    <li key={p.key}>
                      <code>{p.problem}</code>
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
                data-testid="regrade-cancel"
              >
                Cancel job
              </button>
            ) : (
              !jobId && (
                <button
                  type="button"
                  onClick={() => void start()}
                  disabled={needsConfirm && !confirmed}
                  data-testid="regrade-start"
                >
                  Re-grade {n}
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
