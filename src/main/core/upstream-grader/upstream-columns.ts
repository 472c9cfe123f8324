/**
 * The upstream columns of a trajectory (migration 0031) as the grid and the agreement view read them: ONE definition,
 * so the grid's "Agrees with upstream" and the per-task counts never differ. `t` is the trajectories table's alias.
 *
 * agrees: 1/0 when upstream's grader.py answered and the app's current grade has a pass/fail; NULL when either is
 * unknown (never graded upstream, grader.py failed, the app's grade waits for a judge or the app did not grade it).
 */
export function upstreamSql(t = 'trajectories') {
  const c = (col: string) => `${t}.${col}`;
  return {
    graded: `(${c('upstream_grade_id')} IS NOT NULL OR ${c('upstream_error')} IS NOT NULL)`,
    failed: `(${c('upstream_error')} IS NOT NULL)`,
    agrees: `(CASE WHEN ${c('upstream_passed')} IS NULL OR ${c('passed')} IS NULL THEN NULL
      ELSE ${c('upstream_passed')} = ${c('passed')} END)`,
    appPending: `(${c('upstream_passed')} IS NOT NULL AND ${c('passed')} IS NULL)`,
  };
}
