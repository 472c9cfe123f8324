import type { Evidence, GradeResult } from '../../../shared/contract/entities/checks';
import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import type { Trajectory } from '../../../shared/contract/entities/trajectory';
import { prepareCached, type WriteDb } from '../db/sqlite';
import { callLocations } from '../../../shared/contract/entities/call-locations';
import { grade } from '../grading/grade';
import { runRecordOf } from '../grading/run-record';
import { ContextCache, loadTrajectory } from './load-trajectory';
import { trajectoriesRepo } from './trajectories.repo';
import { dispatchesOfCalls } from './trajectory-stats';
import { appRowScores } from './row-scores';
import type { Judge } from '../grading/grade';
import { configuredJudge } from '../grading/judge/judge-settings';

/**
 * The trajectory the grader reads: its own dispatches (Claw-Eval traces, runs), or for sources
 * without any, the calls that have results (trajectory-stats.ts). Import and re-grade both use it,
 * so a re-grade with unchanged checks gives the stored grade back.
 */
export const gradableRun = (t: Trajectory): Trajectory =>
  t.dispatches.length || t.trace ? t : { ...t, dispatches: dispatchesOfCalls(t) };

/**
 * Grades stored before evidence named calls (and grades of runs, whose dispatches come from the
 * environment) get each dispatch's call id and message from the trajectory, so every check links
 * to the conversation. Scores are untouched.
 */
export function locateEvidence(g: GradeResult, t: Trajectory): GradeResult {
  const at = callLocations(gradableRun(t));
  const locate = (e: Evidence): Evidence => {
    if (e.kind !== 'dispatch' || e.message !== undefined) return e;
    const l = at[e.index];
    return l ? { ...e, call_id: l.call_id, message: l.message } : e;
  };
  return {
    ...g,
    checks: g.checks.map((c) => ({ ...c, evidence: c.evidence.map(locate) })),
    safetyViolations: g.safetyViolations.map((v) => ({ ...v, evidence: locate(v.evidence) })),
  };
}

export type RegradeSummary = {
  /** Trajectories graded again. */
  regraded: number;
  /** Of those, how many got another score. */
  changed: number;
  /** Mean score before and after (null when none was graded). */
  meanBefore: number | null;
  meanAfter: number | null;
  ids: number[];
};

/**
 * Grades every graded trajectory of a task again with `spec` (inside the caller's transaction):
 * the grid's score columns and the stored grade change together. No re-run: the grader reads the
 * stored dispatches, final text and audits (DESIGN.md §4). Ungraded rows (calls without results,
 * external at import) stay as they are. llm_judge checks read the configured judge's cache (no call inside the
 * transaction: grading.regrade asks the judge first); without a verdict they are judge pending. `only`: these rows.
 */
export function regradeTask(
  db: WriteDb,
  taskId: string,
  spec: TaskSpec,
  judge: Judge | undefined = configuredJudge(db),
  only?: ReadonlySet<number>,
): RegradeSummary {
  const repo = trajectoriesRepo(db);
  const rows = prepareCached(db, 'SELECT id, score FROM trajectories WHERE task_id = ? AND graded = 1 ORDER BY id').all(
    taskId,
  ) as { id: number; score: number | null }[];
  const update = prepareCached(
    db,
    'UPDATE trajectories SET completion = ?, safety = ?, robustness = ?, score = ?, passed = ?, checks_origin = ?, ' +
      'app_pending = ? WHERE id = ?',
  );
  const updateBody = prepareCached(db, 'UPDATE trajectory_bodies SET grade = ? WHERE trajectory_id = ?');
  let changed = 0;
  let before = 0;
  let after = 0;
  const ids: number[] = [];
  const contexts = new ContextCache(db);
  for (const r of rows) {
    if (only && !only.has(r.id)) continue;
    const row = repo.row(r.id)!;
    const body = repo.body(r.id);
    if (!body) continue;
    const g = grade(spec, runRecordOf(gradableRun(loadTrajectory(db, row.source_format, body, contexts))), judge);
    // Only the app's grade changes: the score of record (source_*) is what the source or the run recorded.
    const a = appRowScores(g);
    const passed = a.passed === null ? null : a.passed ? 1 : 0;
    update.run(a.completion, a.safety, a.robustness, a.score, passed, g.checksOrigin, a.appPending, r.id);
    updateBody.run(JSON.stringify(g), r.id);
    if (a.score !== r.score) changed++;
    before += r.score ?? 0;
    after += a.score ?? 0;
    ids.push(r.id);
  }
  const n = ids.length;
  return {
    regraded: n,
    changed,
    meanBefore: n ? before / n : null,
    meanAfter: n ? after / n : null,
    ids,
  };
}
