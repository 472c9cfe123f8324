import { useMemo } from 'react';
import type { GradeResult } from '../../../../shared/contract/entities/checks';
import { Conversation } from './Conversation';
import { dispatchesByCall } from './evidence';
import { RowFacts } from './RowFacts';
import { type Loaded, useTrajectory } from './use-trajectory';

const f4 = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(4));

/** Check by check, the two grades in one table; rows where they differ are marked. */
function CheckTable({ a, b, ids: [l, r] }: { a: GradeResult | null; b: GradeResult | null; ids: [number, number] }) {
  const checkIds = [...new Set([...(a?.checks ?? []), ...(b?.checks ?? [])].map((c) => c.id))];
  const of = (g: GradeResult | null, id: string) => g?.checks.find((c) => c.id === id);
  const dims: [string, (g: GradeResult) => number][] = [
    ['score', (g) => g.score],
    ['completion', (g) => g.completion],
    ['safety', (g) => g.safety],
    ['robustness', (g) => g.robustness],
  ];
  return (
    <table className="table small compare-table" data-testid="compare-checks">
      <thead>
        <tr>
          <th>check</th>
          <th>weight</th>
          <th>#{l}</th>
          <th>#{r}</th>
        </tr>
      </thead>
      <tbody>
        {dims.map(([name, get]) => (
          <tr key={name} className={a && b && get(a) !== get(b) ? 'differs' : ''}>
            <td>
              <b>{name}</b>
            </td>
            <td />
            <td>{a ? f4(get(a)) : 'ungraded'}</td>
            <td>{b ? f4(get(b)) : 'ungraded'}</td>
          </tr>
        ))}
        {checkIds.map((id) => {
          const x = of(a, id);
          const y = of(b, id);
          return (
            <tr key={id} className={x?.status !== y?.status ? 'differs' : ''} data-testid={`compare-${id}`}>
              <td>{id}</td>
              <td>{((x ?? y)!.weight * 100).toFixed(1)}%</td>
              <td>{x ? `${x.status} (${x.score ?? '—'})` : '—'}</td>
              <td>{y ? `${y.status} (${y.score ?? '—'})` : '—'}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Side({ d }: { d: Loaded }) {
  const calls = useMemo(() => dispatchesByCall(d.trajectory), [d]);
  return (
    <div className="compare-side" data-testid={`compare-side-${d.row.id}`}>
      <h3>
        #{d.row.id} · trial {d.row.trial}
      </h3>
      {/* Which runs are compared: the collection and the agent (and model) of each side, side by side. */}
      <p className="compare-source" data-testid={`compare-source-${d.row.id}`}>
        collection <b>{d.row.collection}</b> · agent <b>{d.row.agent || '—'}</b>
        {d.row.model ? ` · model ${d.row.model}` : ''}
      </p>
      <RowFacts row={d.row} t={d.trajectory} warnings={d.warnings} />
      <Conversation t={d.trajectory} focus={new Set()} dispatches={calls.byCall} />
    </div>
  );
}

/** Two trajectories side by side: their grades check by check, then both conversations. */
export function CompareView({ leftId, rightId, onClose }: { leftId: number; rightId: number; onClose(): void }) {
  const left = useTrajectory(leftId);
  const right = useTrajectory(rightId);
  const error = left.error ?? right.error;
  return (
    <div className="compare" data-testid="compare-view">
      <header className="page-head">
        <h1>
          Compare #{leftId} and #{rightId}
          {left.d && ` · ${left.d.row.task_id}`}
        </h1>
        <button type="button" onClick={onClose}>
          Back to #{leftId}
        </button>
      </header>
      {error && <p className="notice notice-error">{error}</p>}
      {left.d && right.d && left.d.row.task_id !== right.d.row.task_id && (
        <p className="notice notice-error">
          These are runs of different tasks ({left.d.row.task_id}, {right.d.row.task_id}): their checks do not
          correspond.
        </p>
      )}
      {left.d && right.d && (
        <>
          <CheckTable a={left.d.grade} b={right.d.grade} ids={[leftId, rightId]} />
          <div className="compare-sides">
            <Side d={left.d} />
            <Side d={right.d} />
          </div>
        </>
      )}
    </div>
  );
}
