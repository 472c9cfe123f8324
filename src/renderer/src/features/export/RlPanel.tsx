import { useEffect, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { call, errorText } from '../../api/client';
import { ExportRun } from './ExportRun';
import { ErrorNotice } from '../../components/ErrorNotice';

type Method = 'grpo' | 'drgrpo' | 'gdpo' | 'gigpo';
/** Whose arithmetic the advantages follow; 'default' lets the core choose (verl; TRL for GDPO, which verl lacks). */
type Convention = 'default' | 'paper' | 'verl' | 'trl';
/** The trainers that implement each method (core/export/advantages/conventions.ts). */
const UNSUPPORTED: Record<Method, Convention[]> = { grpo: [], drgrpo: [], gdpo: ['verl'], gigpo: ['trl'] };
type RlPreview = Output<'export.rlPreview'>;
const fmt = (x: number | null) => (x === null ? '–' : x.toFixed(3));

/** The preview's account of its convention (settings.convention in the manifest): whose arithmetic, σ, guard. */
function conventionLine(settings: Record<string, unknown>): string {
  const c = settings.convention as { name?: string; source?: { tag?: string }; std?: string; denominator?: string };
  if (!c?.name) return '';
  return `${c.name}${c.source?.tag ? ` ${c.source.tag}` : ''}: σ ${c.std}, divided by ${c.denominator}`;
}

/** The RL package: the advantage method, its preview (groups without signal flagged), the export. */
export function RlPanel({ exportsDir }: { exportsDir: string }) {
  const [method, setMethod] = useState<Method>('grpo');
  const [convention, setConvention] = useState<Convention>('default');
  const choice = { advantage: method, ...(convention === 'default' ? {} : { convention }) };
  const pickMethod = (m: Method) => {
    setMethod(m);
    if (UNSUPPORTED[m].includes(convention)) setConvention('default');
  };
  const [preview, setPreview] = useState<RlPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    setPreview(null);
    call('export.rlPreview', { advantage: method, ...(convention === 'default' ? {} : { convention }) }).then(
      (p) => current && (setPreview(p), setError(null)),
      (e) => current && setError(errorText(e)),
    );
    return () => {
      current = false;
    };
  }, [method, convention]);
  const p = preview?.preview;
  return (
    <div className="export-panel">
      <div className="toolbar">
        <label>
          Advantage{' '}
          <select aria-label="Advantage" value={method} onChange={(e) => pickMethod(e.target.value as Method)}>
            <option value="grpo">GRPO</option>
            <option value="drgrpo">Dr.GRPO</option>
            <option value="gdpo">GDPO</option>
            <option value="gigpo">GiGPO</option>
          </select>
        </label>
        <label title="σ estimator, ε or floor, one-rollout groups: as the trainer that consumes the package does">
          Convention{' '}
          <select
            aria-label="Convention"
            value={convention}
            onChange={(e) => setConvention(e.target.value as Convention)}
          >
            <option value="default">trainer default</option>
            <option value="verl" disabled={UNSUPPORTED[method].includes('verl')}>
              verl
            </option>
            <option value="trl" disabled={UNSUPPORTED[method].includes('trl')}>
              TRL
            </option>
            <option value="paper">paper</option>
          </select>
        </label>
        {!p && !error && <span className="hint">computing the preview…</span>}
      </div>
      <ErrorNotice error={error} onDismiss={() => setError(null)} />
      {p && (
        <>
          <p className="stats" data-testid="rl-counts">
            {`${p.counts.tasks} tasks · ${p.counts.rollouts} rollouts (${p.counts.valid_rollouts} valid) · `}
            {`${p.counts.groups} groups · `}
            <strong>{p.counts.no_signal_groups} without signal</strong>
          </p>
          <p className="hint" data-testid="rl-convention">
            {conventionLine(p.settings)}
          </p>
          <table className="table small" data-testid="rl-groups">
            <thead>
              <tr>
                <th>Task</th>
                <th>Rollouts</th>
                <th>Mean</th>
                <th>Std</th>
                <th>Signal</th>
              </tr>
            </thead>
            <tbody>
              {p.groups.map((g) => (
                <tr key={g.task_id} className={g.no_signal ? 'no-signal' : ''}>
                  <td>{g.task_id}</td>
                  <td>
                    {g.valid_rollouts} / {g.rollouts}
                  </td>
                  <td>{fmt(g.mean)}</td>
                  <td>{fmt(g.std)}</td>
                  <td>{!g.valid ? 'no valid rollout' : g.no_signal ? 'no signal (equal rewards)' : 'ok'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {p.flags.length > 0 && (
            <ul className="export-flags" data-testid="rl-flags">
              {p.flags.slice(0, 50).map((f) => (
                <li key={`${f.code}-${f.task_id}-${f.check_id}-${f.trajectory_id}-${f.message}`} className={f.level}>
                  {f.level === 'warn' ? '⚠ ' : ''}
                  {f.task_id ? `${f.task_id}: ` : ''}
                  {f.message}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <ExportRun
        job="export.rl"
        defaultDir={`${exportsDir}/rl-${method}`}
        disabled={!p}
        start={(outDir, overwrite) => call('export.rl', { outDir, overwrite, ...choice })}
        describe={(x) => `${x.counts.tasks} tasks and ${x.counts.rollouts} rollouts written to ${x.outDir}`}
      />
    </div>
  );
}

/** Claw-Eval task folders of every workspace task. */
export function ClawEvalPanel({ exportsDir }: { exportsDir: string }) {
  return (
    <div className="export-panel">
      <p className="hint">
        Every workspace task as a Claw-Eval task folder (task.yaml, fixtures, the generic grader.py); imported tasks are
        written back verbatim.
      </p>
      <ExportRun
        job="export.clawEval"
        defaultDir={`${exportsDir}/claw-eval`}
        start={(outDir, overwrite) => call('export.clawEval', { outDir, overwrite })}
        describe={(x) => `${x.counts.tasks} task folders written to ${x.outDir}`}
      />
    </div>
  );
}
