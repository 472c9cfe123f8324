import { useMemo, useState } from 'react';
import type { ImportOutcome } from '../../../../shared/contract/entities/task';

type Severity = 'error' | 'warning';
type Item = { severity: Severity; text: string };
type Group = { key: string; task: string; taskId: string | null; status: ImportOutcome['status']; items: Item[] };

/** Every outcome with something to say, in import order; its errors first, then its warnings. */
function groupsOf(outcomes: readonly ImportOutcome[]): Group[] {
  return outcomes
    .map((o, i) => ({
      key: `${i}:${o.source}`,
      task: o.taskId ?? o.source,
      taskId: o.status === 'error' ? null : o.taskId,
      status: o.status,
      items: [
        ...o.errors.map((text) => ({ severity: 'error' as const, text })),
        ...o.warnings.map((text) => ({ severity: 'warning' as const, text })),
      ],
    }))
    .filter((g) => g.items.length > 0);
}

const has = (hay: string, needle: string) => hay.toLowerCase().includes(needle.trim().toLowerCase());

/**
 * What an import said, all of it: every error and warning grouped per task, filterable by task, severity and text
 * (a Claw-Eval root gives a few hundred lines; the status bar only has room for the counts). A task that imported
 * opens from its heading.
 */
export function ImportReport({
  outcomes,
  onOpen,
  onClose,
}: {
  outcomes: readonly ImportOutcome[];
  onOpen(taskId: string): void;
  onClose(): void;
}) {
  const [task, setTask] = useState('');
  const [severity, setSeverity] = useState<'all' | Severity>('all');
  const [text, setText] = useState('');
  const groups = useMemo(() => groupsOf(outcomes), [outcomes]);
  const total = groups.reduce((n, g) => n + g.items.length, 0);
  const shown = groups
    .filter((g) => has(g.task, task))
    .map((g) => ({
      ...g,
      items: g.items.filter((x) => (severity === 'all' || x.severity === severity) && has(x.text, text)),
    }))
    .filter((g) => g.items.length > 0);
  const count = shown.reduce((n, g) => n + g.items.length, 0);
  return (
    <section className="import-report" data-testid="import-report" aria-label="Import report">
      <div className="toolbar">
        <strong>Import report</strong>
        <input placeholder="Task…" aria-label="Filter by task" value={task} onChange={(e) => setTask(e.target.value)} />
        <select
          aria-label="Severity"
          value={severity}
          onChange={(e) => setSeverity(e.target.value as 'all' | Severity)}
        >
          <option value="all">errors and warnings</option>
          <option value="error">errors</option>
          <option value="warning">warnings</option>
        </select>
        <input placeholder="Text…" aria-label="Filter by text" value={text} onChange={(e) => setText(e.target.value)} />
        <span className="hint" data-testid="import-report-count">
          {count === total ? `${total} messages` : `${count} of ${total} messages`} in {shown.length} task
          {shown.length === 1 ? '' : 's'}
        </span>
        <button type="button" className="link" onClick={onClose} aria-label="hide import report">
          ×
        </button>
      </div>
      <div className="import-report-list">
        {total === 0 && <p className="hint">No errors and no warnings.</p>}
        {shown.map((g) => (
          <div key={g.key} className="import-report-task" data-testid="import-report-task" data-task={g.task}>
            <h4>
              {g.taskId ? (
                <button type="button" className="link" onClick={() => onOpen(g.taskId!)}>
                  {g.task}
                </button>
              ) : (
                // A refused task has no id yet: its folder's name, the full path on hover.
                <span title={g.task}>{g.task.split(/[\\/]/).pop() || g.task}</span>
              )}{' '}
              <span className={`chip chip-${g.status === 'error' ? 'fail' : 'pass'}`}>{g.status}</span>
            </h4>
            <ul>
              {g.items.map((x, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list per render, never reordered
                <li key={i} className={`issue issue-${x.severity}`}>
                  <span className="issue-severity">{x.severity}</span> {x.text}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}
