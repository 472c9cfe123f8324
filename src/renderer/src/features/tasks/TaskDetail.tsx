import { useEffect, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { call, errorText, onEvent } from '../../api/client';
import { FixtureGrid } from './FixtureGrid';
import { TaskChecks } from './TaskChecks';
import { TaskLineage } from './TaskLineage';
import { TaskValidation } from './TaskValidation';
import { TaskVersions } from './TaskVersions';

type Detail = Output<'tasks.get'>;
type Spec = {
  prompt?: { text?: string; language?: string };
  tools?: { name: string; description?: string }[];
  tool_endpoints?: { tool_name: string; url: string }[];
};

/** A task: prompt, tools, the task.yaml's declared checks, and each service's fixture as an editable grid. */
export function TaskDetail({ taskId, onClose }: { taskId: string; onClose(): void }) {
  const [d, setD] = useState<Detail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tab, setTab] = useState<string | null>(null);
  useEffect(() => {
    const load = () =>
      call('tasks.get', { taskId }).then(
        (x) => (setD(x), setTab((s) => s ?? (x.fixtures[0] ? `${x.fixtures[0].service}/${x.fixtures[0].env}` : null))),
        (e) => setError(errorText(e)),
      );
    void load();
    return onEvent('table.changed', ({ table }) => table === 'tasks' && void load());
  }, [taskId]);
  if (error)
    return (
      <aside className="detail">
        <p className="notice notice-error">{error}</p>
      </aside>
    );
  if (!d) return <aside className="detail">Loading…</aside>;
  const spec = d.spec as Spec;
  const routes = new Map((spec.tool_endpoints ?? []).map((e) => [e.tool_name, new URL(e.url).pathname]));
  return (
    <aside className="detail" data-testid="task-detail">
      <header className="detail-head">
        <h2>{d.row.task_id}</h2>
        <button type="button" className="link" onClick={onClose} aria-label="close">
          ×
        </button>
      </header>
      <p className="hint">
        {d.row.name} · {d.row.split} · {d.row.category} · {d.row.difficulty} · {d.row.language} · version{' '}
        {d.row.version}
      </p>
      {d.row.warnings.length > 0 && (
        <details className="warnings" open data-testid="task-warnings">
          <summary>
            {d.row.warnings.length} import warning{d.row.warnings.length > 1 ? 's' : ''} (upstream quirks and values
            outside our vocabulary, kept as upstream serves them)
          </summary>
          <ul>
            {d.row.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </details>
      )}
      <h3>Prompt</h3>
      <pre className="prompt" data-testid="task-prompt" lang={d.row.language === 'zh' ? 'zh-CN' : undefined}>
        {spec.prompt?.text}
      </pre>
      <h3>Tools ({spec.tools?.length ?? 0})</h3>
      <table className="table small">
        <tbody>
          {(spec.tools ?? []).map((t) => (
            <tr key={t.name}>
              <td>
                <code>{t.name}</code>
              </td>
              <td>{routes.get(t.name) ?? <em>no endpoint</em>}</td>
              <td>{t.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Validation</h3>
      <TaskValidation taskId={taskId} />
      <h3>Versions</h3>
      <TaskVersions taskId={taskId} current={d.row.version} />
      <h3>Checks</h3>
      <TaskChecks taskId={taskId} />
      <TaskLineage taskId={taskId} />
      <h3>Fixtures</h3>
      <div className="tabs" role="tablist">
        {d.fixtures.map((f) => {
          const key = `${f.service}/${f.env}`;
          const extra = d.fixtures.filter((x) => x.service === f.service).length > 1;
          return (
            <button
              type="button"
              key={key}
              role="tab"
              aria-selected={key === tab}
              className={key === tab ? 'active' : ''}
              onClick={() => setTab(key)}
            >
              {f.service}
              {extra ? ` · ${f.env}` : ''} ({f.records})
            </button>
          );
        })}
      </div>
      {(() => {
        const f = d.fixtures.find((x) => `${x.service}/${x.env}` === tab);
        return f ? (
          <FixtureGrid
            key={tab}
            taskId={taskId}
            service={f.service}
            fixtureEnv={f.env}
            source={`${f.source}${f.setByTask ? '' : ` (default fixture: the task sets no ${f.env})`}`}
          />
        ) : null;
      })()}
    </aside>
  );
}
