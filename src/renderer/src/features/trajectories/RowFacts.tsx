import type { Trajectory } from '../../../../shared/contract/entities/trajectory';
import type { TrajectoryRow } from '../../../../shared/contract/entities/trajectory-row';

/**
 * Who ran it, where it came from and what it cost: the row's facts in one line each; then the
 * warnings its import kept (the reader's and the grader's), which the grid's Warnings column counts.
 */
export function RowFacts({
  row,
  t,
  warnings,
}: {
  row: TrajectoryRow;
  t: Pick<Trajectory, 'termination' | 'source'>;
  warnings: readonly string[];
}) {
  const facts: [string, string][] = [
    ['agent', row.agent + (row.model && row.model !== row.agent ? ` (${row.model})` : '')],
    ['collection', `${row.collection}${row.superseded ? ` — superseded by ${row.superseded_by}` : ''}`],
    ['trial', String(row.trial)],
    ['source', `${row.source_format}${t.source.file ? ` · ${t.source.file}` : ''}`],
    ['source reward', row.source_reward === null ? '—' : String(row.source_reward)],
    ['size', `${row.message_count} messages · ${row.tool_call_count} tool calls · ${row.char_count} chars`],
  ];
  if (row.tokens !== null) facts.push(['tokens', row.tokens.toLocaleString('en-US')]);
  if (row.duration_ms !== null) facts.push(['wall time', `${(row.duration_ms / 1000).toFixed(1)} s`]);
  if (t.termination) facts.push(['ended', t.termination]);
  if (row.error) facts.push(['error', row.error]);
  if (row.external) facts.push(['task', 'not in the workspace: kept with its own reward, not graded']);
  // The task key qualifies the source's id: say which id the benchmark itself gave.
  if (row.task_source) facts.push(['benchmark task', `${row.task_source} · task ${row.source_task_id}`]);
  return (
    <>
      <dl className="facts row-facts" data-testid="row-facts">
        {facts.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      {warnings.length > 0 && (
        <ul className="row-warnings" data-testid="row-warnings" aria-label="warnings">
          {warnings.map((w, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, never reordered (texts may repeat)
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
    </>
  );
}
