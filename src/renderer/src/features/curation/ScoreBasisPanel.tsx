import { useCallback, useEffect, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { call, errorText, onEvent } from '../../api/client';
import type { Notice } from '../../grids/StatusBar';

type Scores = Output<'grading.scoreBasis'>['collections'][number];
type Basis = Scores['basis'];
const other = (b: Basis): Basis => (b === 'recorded' ? 'app' : 'recorded');

/**
 * Issue 18 item 3: per collection, which score curation, reports and exports count — the score of record or the
 * app's grade — with how many rows each side has, how many disagree and how many await a judge. Switching asks for
 * the curation reason and says first how many disagreeing rows would count otherwise: never silently.
 */
export function ScoreBasisPanel({ reason, onNotice }: { reason: string; onNotice(n: Notice): void }) {
  const [rows, setRows] = useState<Scores[] | null>(null);
  const [armed, setArmed] = useState<string | null>(null);
  const load = useCallback(() => {
    call('grading.scoreBasis', {})
      .then((r) => setRows(r.collections))
      .catch((e) => onNotice({ kind: 'error', text: errorText(e) }));
  }, [onNotice]);
  useEffect(load, [load]);
  useEffect(
    () => onEvent('table.changed', ({ table }) => (table === 'collections' || table === 'trajectories') && load()),
    [load],
  );
  const apply = async (c: Scores) => {
    if (!reason.trim()) return onNotice({ kind: 'error', text: 'Give a reason first (the Reason box above)' });
    try {
      const r = await call('grading.setScoreBasis', { collection: c.collection, basis: other(c.basis), reason });
      onNotice({
        kind: 'info',
        text: `${c.collection}: score basis ${r.before} → ${r.after}; ${r.tasks} tasks re-counted`,
      });
    } catch (e) {
      onNotice({ kind: 'error', text: errorText(e) });
    } finally {
      setArmed(null);
    }
  };
  if (!rows?.length) return null;
  return (
    <div className="score-basis" data-testid="score-basis">
      <div className="toolbar">
        <b>Score basis</b>
        <span className="hint">which score each collection counts with: recorded (score of record) or app</span>
      </div>
      <table className="table small">
        <thead>
          <tr>
            <th>Collection</th>
            <th>Basis</th>
            <th>Rows</th>
            <th>Recorded</th>
            <th>App graded</th>
            <th>Disagree</th>
            <th>Judge pending</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={c.collection} data-testid={`score-basis-${c.collection}`}>
              <td>{c.collection}</td>
              <td data-testid="basis">{c.basis}</td>
              <td>{c.trajectories}</td>
              <td>{c.recorded}</td>
              <td>{c.graded}</td>
              <td>{c.disagreements}</td>
              <td>{c.judgePending}</td>
              <td>
                {armed === c.collection ? (
                  <>
                    <span className="hint" data-testid="basis-preview">
                      {c.disagreements} disagreeing rows would count with the {other(c.basis)} score
                      {other(c.basis) === 'app' && c.judgePending ? `; ${c.judgePending} await a judge` : ''}
                    </span>{' '}
                    <button type="button" onClick={() => void apply(c)} data-testid="basis-apply">
                      Apply
                    </button>
                    <button type="button" onClick={() => setArmed(null)}>
                      Cancel
                    </button>
                  </>
                ) : (
                  <button type="button" onClick={() => setArmed(c.collection)} data-testid="basis-switch">
                    Use {other(c.basis)}…
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
