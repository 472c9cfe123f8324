import { useEffect, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { call, errorText, onEvent } from '../../api/client';

/** The validators' verdicts for one task, round by round, with the repair diff between rounds. */
export function TaskValidation({ taskId }: { taskId: string }) {
  const [r, setR] = useState<Output<'validation.report'> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const load = () => void call('validation.report', { taskId }).then(setR, (e) => setError(errorText(e)));
    load();
    return onEvent('table.changed', ({ table }) => (table === 'tasks' || table === 'validation_reports') && load());
  }, [taskId]);
  if (error) return <p className="notice notice-error">{error}</p>;
  if (!r) return null;
  return (
    <div data-testid="task-validation">
      <p>
        Status:{' '}
        <span className={`chip chip-${r.status}`} data-testid="validation-status">
          {r.status}
        </span>
        {r.status === 'unvalidated' && (
          <span className="hint"> — “Validate selected” in the grid runs the validators</span>
        )}
      </p>
      {r.rounds.map((round, i) => (
        <details key={`${round.version}:${round.round}`} open={i === r.rounds.length - 1} className="round">
          <summary>
            Version {round.version} · round {round.round}: {round.valid ? 'valid' : 'invalid'} ·{' '}
            {round.created_at.replace('T', ' ').slice(0, 19)}
          </summary>
          <table className="table small">
            <tbody>
              {round.verdicts.map((v) => (
                <tr key={v.validator} data-testid={`verdict-${v.validator}`}>
                  <td>{v.validator}</td>
                  <td>
                    <span className={`chip chip-${v.status}`}>{v.status.replace('_', ' ')}</span>
                  </td>
                  <td>
                    {v.messages.map((m, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, never reordered
                      <div key={i}>
                        <code>{m.field}</code> {m.message}
                      </div>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {round.diff && <pre className="diff">{round.diff}</pre>}
        </details>
      ))}
    </div>
  );
}
