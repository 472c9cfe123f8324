import { useEffect, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import type { Check } from '../../../../shared/contract/entities/checks';
import { call, errorText } from '../../api/client';

const target = (c: Check): string => {
  switch (c.kind) {
    case 'tool_called':
      return `${c.tool}${c.min_count > 1 ? ` ×${c.min_count}` : ''}${
        c.args ? ` where ${Object.keys(c.args).join(', ' + '')} match` : ''
      }`;
    case 'audit':
      return `${c.service}.${c.action_key}${c.fields ? ` where ${Object.keys(c.fields).join(', ')} match` : ''}`;
    case 'final_text':
      return [
        c.contains_all?.length ? `all of ${c.contains_all.join(' · ')}` : '',
        c.contains_any?.length ? `any of ${c.contains_any.join(' · ')}` : '',
        c.regex ? `/${c.regex}/` : '',
        c.min_length ? `≥ ${c.min_length} chars` : '',
      ]
        .filter(Boolean)
        .join('; ');
    case 'llm_judge':
      return c.rubric.length > 140 ? `${c.rubric.slice(0, 140)}…` : c.rubric;
  }
};

/** The checks the shared grader applies; derived ones are labelled as such, never passed off as upstream's grader. */
export function TaskChecks({ taskId }: { taskId: string }) {
  const [d, setD] = useState<Output<'tasks.checks'> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => void call('tasks.checks', { taskId }).then(setD, (e) => setError(errorText(e))), [taskId]);
  if (error) return <p className="notice notice-error">{error}</p>;
  if (!d) return null;
  return (
    <div data-testid="task-checks">
      {d.origin === 'derived_from_task_yaml' && (
        <p className="badge-derived" data-testid="checks-derived">
          Checks derived from task.yaml — Claw-Eval itself grades this task with a per-task Python grader; these scores
          are not upstream's.
        </p>
      )}
      <table className="table small">
        <thead>
          <tr>
            <th>check</th>
            <th>kind</th>
            <th>weight</th>
            <th>target</th>
          </tr>
        </thead>
        <tbody>
          {d.checks.map((c) => (
            <tr key={c.id}>
              <td>{c.id}</td>
              <td>{c.kind}</td>
              <td>{(c.weight * 100).toFixed(1)}%</td>
              <td>{target(c)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {d.prohibited.length > 0 && (
        <ul className="checks-list">
          {d.prohibited.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, never reordered
            <li key={i}>
              prohibited:{' '}
              {p.kind === 'tool'
                ? `${p.tool}${p.args ? `: calls with a wrong ${Object.keys(p.args).join(' or ')}` : ''}`
                : p.kind === 'assistant_text'
                  ? `assistant text containing ${p.contains_any.length} string(s)`
                  : p.kind === 'judge'
                    ? 'what the LLM judge reads as a breach (judge-evaluated, pending without a judge)'
                    : `${p.service}.${p.action_key} record`}
              {p.description ? ` — ${p.description}` : ''}
            </li>
          ))}
        </ul>
      )}
      {d.notes.length > 0 && (
        <ul className="hint">
          {d.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
