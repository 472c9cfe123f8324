import { useEffect, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { call, errorText, onEvent } from '../../api/client';

type Diff = Output<'tasks.versionDiff'>;

/** Every version of a task (why it was made), the diff of a version against the one before, and revert. */
export function TaskVersions({ taskId, current }: { taskId: string; current: number }) {
  const [versions, setVersions] = useState<Output<'tasks.versions'>>([]);
  const [open, setOpen] = useState<number | null>(null);
  const [diff, setDiff] = useState<Diff | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    const load = () => void call('tasks.versions', { taskId }).then(setVersions, (e) => setMessage(errorText(e)));
    load();
    return onEvent('table.changed', ({ table }) => table === 'tasks' && load());
  }, [taskId]);
  useEffect(() => {
    if (open === null) return setDiff(null);
    call('tasks.versionDiff', { taskId, version: open }).then(setDiff, (e) => setMessage(errorText(e)));
  }, [taskId, open]);
  const revert = async (version: number) => {
    try {
      const r = await call('tasks.revert', { taskId, version });
      setMessage(
        `Reverted to version ${version}: now version ${r.version} (${r.status})` +
          (r.checksRestored
            ? `; checks restored, re-graded ${r.regraded} trajectories, ${r.changed} changed score`
            : ''),
      );
    } catch (e) {
      setMessage(errorText(e));
    }
  };
  return (
    <div data-testid="task-versions">
      {message && <p className="hint">{message}</p>}
      <table className="table small">
        <tbody>
          {versions.map((v) => (
            <tr key={v.version} data-testid={`version-${v.version}`}>
              <td>v{v.version}</td>
              <td>{v.created_at.replace('T', ' ').slice(0, 19)}</td>
              <td>{v.reason}</td>
              <td>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => setOpen(open === v.version ? null : v.version)}
                >
                  {open === v.version ? 'hide changes' : 'changes'}
                </button>{' '}
                {v.version !== current && (
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => void revert(v.version)}
                    data-testid={`revert-${v.version}`}
                  >
                    revert to this
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {diff && (
        <div className="version-diff" data-testid="version-diff">
          <p className="hint">
            Version {diff.version} against{' '}
            {diff.against === null ? 'nothing (first version)' : `version ${diff.against}`}
          </p>
          {diff.fixtures.length === 0 && diff.checks.length === 0 && <p className="hint">No changes.</p>}
          {diff.checks.length > 0 && (
            <ul data-testid="check-diff">
              {diff.checks.map((c) => (
                <li key={c.id}>
                  check <b>{c.id}</b> {c.change}: {c.before !== null && <del>{c.before}</del>}
                  {c.before !== null && c.after !== null && ' → '}
                  {c.after !== null && <ins>{c.after}</ins>}
                </li>
              ))}
            </ul>
          )}
          {diff.fixtures.map((f) => (
            <div key={f.env}>
              <b>{f.service}</b>
              <ul>
                {f.added.map((a) => (
                  <li key={`a${a.record}`}>
                    + record {a.record} {a.key ?? ''}
                  </li>
                ))}
                {f.removed.map((a) => (
                  <li key={`r${a.record}`}>
                    − record {a.record} {a.key ?? ''}
                  </li>
                ))}
                {f.changed.map((c) => (
                  <li key={`${c.record}:${c.field}`}>
                    record {c.record}
                    {c.key ? ` (${c.key})` : ''} · <code>{c.field}</code>: <del>{c.before ?? '(none)'}</del> →{' '}
                    <ins>{c.after ?? '(none)'}</ins>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
