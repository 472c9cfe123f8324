import { navigate } from '../../router';
import { f4 } from './format';
import { useRunReport } from './RunReport';

type Report = NonNullable<ReturnType<typeof useRunReport>['report']>;

const FIGURES: [string, (r: Report) => number | null][] = [
  ['Pass@k', (r) => r.overall.pass_at_k],
  ['Pass^k', (r) => r.overall.pass_hat_k],
  ['Mean score', (r) => r.overall.mean_score],
  ['Completion', (r) => r.overall.completion],
  ['Safety', (r) => r.overall.safety],
  ['Leaderboard AllPass', (r) => r.overall.leaderboard.all_pass],
];

const delta = (a: number | null | undefined, b: number | null | undefined) =>
  a === null || a === undefined || b === null || b === undefined
    ? '–'
    : `${b - a >= 0 ? '+' : ''}${(b - a).toFixed(4)}`;

/**
 * Teacher and student side by side: two runs' reports at the same k (the teacher's), overall and per
 * task (the tasks either ran), with the student's difference. #/runs/<teacher>/compare/<student>.
 */
export function RunCompare({ teacher, student }: { teacher: number; student: number }) {
  const a = useRunReport(teacher, null);
  const b = useRunReport(student, a.report?.k ?? null);
  const error = a.error ?? b.error;
  if (error)
    return (
      <p className="notice notice-error" role="alert">
        {error}
      </p>
    );
  if (!a.report || !b.report || b.report.k !== a.report.k) return <p className="hint">Loading the reports…</p>;
  const ta = new Map(a.report.tasks.map((t) => [t.task_id, t]));
  const tb = new Map(b.report.tasks.map((t) => [t.task_id, t]));
  const ids = [...new Set([...ta.keys(), ...tb.keys()])].sort();
  return (
    <section className="run-report" data-testid="run-compare" aria-label="Teacher and student">
      <header className="toolbar">
        <h2>Teacher vs student, k = {a.report.k}</h2>
        <button type="button" onClick={() => navigate({ page: 'runs', runId: teacher })}>
          Close comparison
        </button>
      </header>
      <table className="table small" data-testid="compare-overall">
        <thead>
          <tr>
            <th />
            <th>Teacher: {a.report.scope.label}</th>
            <th>Student: {b.report.scope.label}</th>
            <th>Student − teacher</th>
          </tr>
        </thead>
        <tbody>
          {FIGURES.map(([name, f]) => (
            <tr key={name}>
              <th scope="row">{name.replace('k', String(a.report!.k))}</th>
              <td>{f4(f(a.report!))}</td>
              <td>{f4(f(b.report!))}</td>
              <td>{delta(f(a.report!), f(b.report!))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="table small" data-testid="compare-tasks">
        <thead>
          <tr>
            <th>Task</th>
            <th>Teacher mean</th>
            <th>Teacher passed</th>
            <th>Student mean</th>
            <th>Student passed</th>
            <th>Δ mean</th>
          </tr>
        </thead>
        <tbody>
          {ids.map((id) => {
            const x = ta.get(id);
            const y = tb.get(id);
            return (
              <tr key={id}>
                <td>{id}</td>
                <td>{f4(x?.mean_score)}</td>
                <td>{x ? `${x.passed} / ${x.trials}` : 'not run'}</td>
                <td>{f4(y?.mean_score)}</td>
                <td>{y ? `${y.passed} / ${y.trials}` : 'not run'}</td>
                <td>{delta(x?.mean_score, y?.mean_score)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
