import type { CheckResult, Evidence, GradeResult } from '../../../../shared/contract/entities/checks';
import type { TrajectoryRow } from '../../../../shared/contract/entities/trajectory-row';
import { evidenceLabel } from './evidence';

const f4 = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(4));

function Dimensions({ g }: { g: GradeResult }) {
  return (
    <dl className="facts dims" data-testid="grade-dims">
      <dt>score</dt>
      <dd data-testid="grade-score">
        {f4(g.score)}{' '}
        <span className={`chip ${g.passed ? 'chip-pass' : 'chip-fail'}`}>{g.passed ? 'pass' : 'fail'}</span>
      </dd>
      <dt>completion</dt>
      <dd>{f4(g.completion)}</dd>
      <dt>safety</dt>
      <dd>{g.safety}</dd>
      <dt>robustness</dt>
      <dd>{f4(g.robustness)}</dd>
    </dl>
  );
}

/**
 * The grade: score = safety × (0.8 × completion + 0.2 × robustness); each check with its weight,
 * status and evidence. A click on a check (or one of its evidence chips) shows its proof in the
 * conversation or the audit; `onEdit` appears for tasks whose checks are authored (generated, manual).
 */
export function GradePanel({
  row,
  grade,
  active,
  onFocus,
  onEdit,
}: {
  row: TrajectoryRow;
  grade: GradeResult | null;
  active: string | null;
  onFocus(key: string, evidence: Evidence[], which?: number): void;
  onEdit?: ((checkId: string) => void) | undefined;
}) {
  if (!grade)
    return (
      <div data-testid="grade">
        <h3>Grade</h3>
        <p className="hint">
          Not graded by the shared grader
          {row.external ? ': the task is not in the workspace' : ': the source lacks what the grader reads'}.
          {row.source_reward !== null && ` The source's own reward: ${row.source_reward}.`}
        </p>
      </div>
    );
  const check = (c: CheckResult) => (
    <li
      key={c.id}
      className={`check check-${c.status}${active === `check:${c.id}` ? ' active' : ''}`}
      data-testid={`check-${c.id}`}
    >
      <button type="button" className="check-main" onClick={() => onFocus(`check:${c.id}`, c.evidence)}>
        <span
          className={`chip chip-${c.status === 'met' ? 'pass' : c.status === 'not_graded' ? 'not_applicable' : 'fail'}`}
        >
          {c.status}
        </span>
        <b>{c.id}</b>
        <span className="hint">
          {c.kind} · weight {(c.weight * 100).toFixed(1)}% · score {c.score ?? '—'}
        </span>
      </button>
      {onEdit && (
        <button type="button" className="link" onClick={() => onEdit(c.id)} data-testid={`edit-check-${c.id}`}>
          edit
        </button>
      )}
      <div className="hint">{c.message}</div>
      <div className="evidence-chips">
        {c.evidence.map((e, i) => (
          <button
            // biome-ignore lint/suspicious/noArrayIndexKey: evidence of one check, never reordered
            key={i}
            type="button"
            className={`chip evidence-chip${e.kind === 'none' || e.kind === 'judge' ? ' evidence-none' : ''}`}
            disabled={e.kind === 'none' || e.kind === 'judge'}
            onClick={() => onFocus(`check:${c.id}`, c.evidence, i)}
          >
            {evidenceLabel(e)}
          </button>
        ))}
      </div>
      {c.evidence.map((e, i) =>
        e.kind === 'judge' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: evidence of one check, never reordered
          <details key={i} className="judge-evidence" data-testid={`judge-evidence-${c.id}`}>
            <summary>
              Judge {e.model}: {e.score ?? 'no score'} — {e.reasoning}
            </summary>
            <h4>Prompt</h4>
            <pre>{e.prompt}</pre>
            <h4>Answer</h4>
            <pre>{e.answer}</pre>
          </details>
        ) : null,
      )}
    </li>
  );
  return (
    <div data-testid="grade">
      <h3>Grade</h3>
      {grade.checksOrigin === 'derived_from_task_yaml' && (
        <p className="badge-derived">Checks derived from task.yaml (not upstream's Python grader).</p>
      )}
      {row.upstream_passed !== null && (
        <p data-testid="viewer-upstream">
          Upstream grader.py: score {row.upstream_score?.toFixed(4)} ({row.upstream_passed ? 'passed' : 'not passed'})
          {row.upstream_agrees === null ? '' : row.upstream_agrees ? ' · agrees with the app' : ' · DISAGREES'}
        </p>
      )}
      {row.upstream_error && (
        <p className="notice notice-error" data-testid="viewer-upstream-error">
          Upstream grader.py failed: {row.upstream_error}
        </p>
      )}
      <Dimensions g={grade} />
      {grade.pendingWeight > 0 && (
        <p className="hint" data-testid="judge-pending">
          Judge pending: {(grade.pendingWeight * 100).toFixed(1)}% of the weight was not graded (llm_judge checks
          without a judge verdict): completion and score are lower bounds, and the trajectory counts in no pass rate.
        </p>
      )}
      <ul className="checks">{grade.checks.map(check)}</ul>
      {grade.safetyViolations.length > 0 && (
        <>
          <h3>Safety violations</h3>
          <ul className="checks">
            {grade.safetyViolations.map((v, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
              <li key={i} className={`check check-failed${active === `safety:${i}` ? ' active' : ''}`}>
                <button
                  type="button"
                  className="check-main"
                  data-testid={`violation-${i}`}
                  onClick={() => onFocus(`safety:${i}`, [v.evidence])}
                >
                  <span className="chip chip-fail">violation</span> {v.rule}
                  <span className="hint"> · {evidenceLabel(v.evidence)}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
