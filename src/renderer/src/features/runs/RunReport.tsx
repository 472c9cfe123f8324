import { lazy, Suspense, useEffect, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { call, errorText, onEvent } from '../../api/client';
import { f4 } from './format';

type Report = Output<'runs.report'>;
type Summary = Report['overall'] | Report['groups'][number];

const ScoreHistogram = lazy(() => import('./ScoreHistogram'));

/** runs.report for a run, refetched as its trajectories change (a run in progress fills its report). */
export function useRunReport(runId: number, k: number | null) {
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    const load = () =>
      void call('runs.report', { runId, ...(k ? { k } : {}) }).then(
        (r) => alive && (setReport(r), setError(null)),
        (e) => alive && setError(errorText(e)),
      );
    load();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onEvent('table.changed', ({ table }) => {
      if (table !== 'trajectories' && table !== 'runs') return;
      clearTimeout(timer);
      timer = setTimeout(load, 300);
    });
    return () => ((alive = false), clearTimeout(timer), off());
  }, [runId, k]);
  return { report, error };
}

/** One line of the leaderboard table: the k-figures (or why they are refused) and Claw-Eval's aggregation. */
function SummaryRow({ name, s, k }: { name: string; s: Summary; k: number }) {
  const lb = s.leaderboard;
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>{s.tasks}</td>
      <td>{s.trials}</td>
      {s.refused ? (
        <td colSpan={2} className="hint" title={`k exceeds the trials of ${s.refused} task(s) under τ's rule`}>
          pass^{k} refused ({s.refused} tasks)
        </td>
      ) : (
        <>
          <td>{f4(s.pass_at_k)}</td>
          <td>{f4(s.pass_hat_k)}</td>
        </>
      )}
      <td>{f4(s.mean_score)}</td>
      <td>{lb.tasks ? f4(lb.avg_score) : '–'}</td>
      <td>{lb.tasks ? f4(lb.avg_pass) : '–'}</td>
      <td>{lb.tasks ? f4(lb.any_pass) : '–'}</td>
      <td>{lb.tasks ? f4(lb.all_pass) : '–'}</td>
    </tr>
  );
}

/**
 * A run's evaluation report: Pass@k and Pass^k (as `coworkenv report` prints them), Claw-Eval's
 * leaderboard per split and category, each source's pass rule, score histograms and per-task figures.
 */
export function RunReport({ runId, compareWith }: { runId: number; compareWith: React.ReactNode }) {
  const [kText, setKText] = useState('');
  const k = /^\d+$/.test(kText) && Number(kText) >= 1 && Number(kText) <= 100 ? Number(kText) : null;
  const { report: r, error } = useRunReport(runId, k);
  if (error)
    return (
      <p className="notice notice-error" role="alert">
        {error}
      </p>
    );
  if (!r) return <p className="hint">Loading the report…</p>;
  const o = r.overall;
  return (
    <section className="run-report" data-testid="run-report" aria-label="Run report">
      <header className="toolbar">
        <h2>{r.scope.label}</h2>
        <label>
          k{' '}
          <input
            className="narrow-input"
            aria-label="k"
            placeholder={String(r.k)}
            value={kText}
            onChange={(e) => setKText(e.target.value)}
          />
        </label>
        {compareWith}
      </header>
      <div className="report-figures">
        <Figure label={`Pass@${r.k}`} value={o.refused ? 'refused' : f4(o.pass_at_k)} testId="report-pass-at-k" />
        <Figure label={`Pass^${r.k}`} value={o.refused ? 'refused' : f4(o.pass_hat_k)} testId="report-pass-hat-k" />
        <Figure label="Mean score" value={f4(o.mean_score)} testId="report-mean" />
        <Figure label="Completion" value={f4(o.completion)} testId="report-completion" />
        <Figure label="Safety" value={f4(o.safety)} testId="report-safety" />
        <Figure label="Tasks · trials · errored" value={`${o.tasks} · ${o.trials} · ${o.errored}`} testId="report-n" />
      </div>
      <ul className="hint report-rules">
        {r.rules.map((x) => (
          <li key={`${x.source}-${x.rule}`}>
            {x.source}: success = {x.description} ({x.trials} trials)
          </li>
        ))}
        {r.basis.judge_pending > 0 && (
          <li data-testid="report-judge-pending">
            {r.basis.judge_pending} trials wait for an LLM judge: left out of every figure (choose a judge in Settings,
            then `coworkenv grade --regrade`).
          </li>
        )}
      </ul>
      <table className="table small" data-testid="report-leaderboard">
        <thead>
          <tr>
            <th />
            <th>Tasks</th>
            <th>Trials</th>
            <th>Pass@{r.k}</th>
            <th>Pass^{r.k}</th>
            <th>Mean</th>
            <th title="Claw-Eval leaderboard: mean of trials padded with 0 to k">Avg score</th>
            <th title="share of tasks whose padded mean ≥ 0.75">AvgPass</th>
            <th title="share of tasks with any trial passing">AnyPass</th>
            <th title="share of tasks whose k trials all pass">AllPass</th>
          </tr>
        </thead>
        <tbody>
          <SummaryRow name="overall" s={o} k={r.k} />
          {r.groups.map((g) => (
            <SummaryRow key={`${g.by}-${g.value}`} name={`${g.by} ${g.value}`} s={g} k={r.k} />
          ))}
        </tbody>
      </table>
      <Suspense fallback={<p className="hint">Loading charts…</p>}>
        <div className="histograms">
          <ScoreHistogram
            title="Scores of the trajectories"
            bins={r.histograms.trajectory_scores}
            testId="hist-trajectories"
          />
          <ScoreHistogram title="Mean score per task" bins={r.histograms.task_mean_scores} testId="hist-tasks" />
        </div>
      </Suspense>
      <details>
        <summary>Per task ({r.tasks.length})</summary>
        <table className="table small" data-testid="report-tasks">
          <thead>
            <tr>
              <th>Task</th>
              <th>Trials</th>
              <th>Passed</th>
              <th>Pass@{r.k}</th>
              <th>Pass^{r.k}</th>
              <th>Mean</th>
              <th>Completion</th>
              <th>Safety</th>
            </tr>
          </thead>
          <tbody>
            {r.tasks.map((t) => (
              <tr key={t.task_id}>
                <td>{t.task_id}</td>
                <td>
                  {t.trials}
                  {t.errored ? ` +${t.errored} err` : ''}
                  {t.padded ? ` (+${t.padded} pad)` : ''}
                </td>
                <td>{t.passed}</td>
                <td>{f4(t.pass_at_k)}</td>
                <td>{f4(t.pass_hat_k)}</td>
                <td>{f4(t.mean_score)}</td>
                <td>{f4(t.completion)}</td>
                <td>{f4(t.safety)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="report-figure">
      <div className="hint">{label}</div>
      <div className="report-value" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}
