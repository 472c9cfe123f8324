import type { Output } from '../../../shared/contract';
import type { ReadDb, WriteDb } from '../db/sqlite';
import type { UpstreamGrade } from './run-upstream';
import { upstreamSql } from './upstream-columns';

export type UpstreamRow = {
  taskId: string;
  traceSha256: string;
  judge: string;
  graderSha256: string | null;
  upstream: UpstreamGrade;
  app: { score: number; passed: boolean; incomplete: boolean };
  at: string;
  /** The stored trajectory graded (migration 0031); absent for a trace file graded from the CLI. */
  trajectoryId?: number;
};

/** One grading, stored as a new row: earlier gradings of the same trace stay (history). Answers the row's id. */
export function insertUpstreamGrade(db: WriteDb, r: UpstreamRow): number {
  const u = r.upstream;
  const info = db
    .prepare(
      `INSERT INTO upstream_grades (task_id, trace_sha256, judge, grader_sha256, ok, completion, safety, robustness,
       score, passed, error, app_score, app_passed, app_incomplete, created_at, trajectory_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      r.taskId,
      r.traceSha256,
      r.judge,
      r.graderSha256,
      u.ok ? 1 : 0,
      u.ok ? u.completion : null,
      u.ok ? u.safety : null,
      u.ok ? u.robustness : null,
      u.ok ? u.score : null,
      u.ok ? (u.passed ? 1 : 0) : null,
      u.ok ? null : upstreamErrorText(u),
      r.app.score,
      r.app.passed ? 1 : 0,
      r.app.incomplete ? 1 : 0,
      r.at,
      r.trajectoryId ?? null,
    );
  return Number(info.lastInsertRowid);
}

type Tasks = Output<'grading.upstreamReport'>['tasks'];

/** Per task, over the latest grading of each trace: how many, how many failed, how many agree on pass/fail. */
export function upstreamReport(db: ReadDb, taskId?: string): Tasks {
  const rows = db
    .prepare(
      `WITH latest AS (
         SELECT g.* FROM upstream_grades g
         WHERE g.id = (SELECT MAX(id) FROM upstream_grades x
                       WHERE x.task_id = g.task_id AND x.trace_sha256 = g.trace_sha256)
           AND (? IS NULL OR g.task_id = ?)
       )
       SELECT task_id AS taskId, COUNT(*) AS traces, SUM(ok = 0) AS failed,
              SUM(ok = 1 AND passed = app_passed) AS agreed, SUM(ok = 1 AND passed = 1) AS upstreamPassed,
              SUM(app_passed) AS appPassed,
              (SELECT error FROM latest l2 WHERE l2.task_id = latest.task_id AND l2.ok = 0
               ORDER BY id DESC LIMIT 1) AS lastError
       FROM latest GROUP BY task_id ORDER BY task_id`,
    )
    .all(taskId ?? null, taskId ?? null) as Tasks;
  return rows;
}

/**
 * A trajectory's latest upstream grading, copied onto its row (migration 0031): the grid's columns. `gradeId` is the
 * upstream_grades row it came from (null for a failure found before grader.py ran: no trace to keep).
 */
export function setTrajectoryUpstream(
  db: WriteDb,
  trajectoryId: number,
  gradeId: number | null,
  u: UpstreamGrade,
): void {
  db.prepare(
    `UPDATE trajectories SET upstream_grade_id = ?, upstream_score = ?, upstream_passed = ?, upstream_completion = ?,
       upstream_error = ? WHERE id = ?`,
  ).run(
    gradeId,
    u.ok ? u.score : null,
    u.ok ? (u.passed ? 1 : 0) : null,
    u.ok ? u.completion : null,
    u.ok ? null : upstreamErrorText(u),
    trajectoryId,
  );
}

/** "stage (file): last line", as stored and shown. */
export const upstreamErrorText = (u: Extract<UpstreamGrade, { ok: false }>) =>
  `${u.stage}${u.file ? ` (${u.file})` : ''}: ${u.error}`;

/** Per task, the trajectories graded upstream and their agreement with the app's current pass/fail. */
export function upstreamAgreement(db: ReadDb, taskId?: string) {
  const u = upstreamSql('t');
  return db
    .prepare(
      `SELECT t.task_id AS taskId, count(*) AS graded, coalesce(sum(${u.agrees} = 1), 0) AS agree,
         coalesce(sum(${u.agrees} = 0), 0) AS disagree, sum(${u.failed}) AS failed, sum(${u.appPending}) AS appPending
       FROM trajectories t WHERE ${u.graded} AND (? IS NULL OR t.task_id = ?)
       GROUP BY t.task_id ORDER BY t.task_id`,
    )
    .all(taskId ?? null, taskId ?? null) as {
    taskId: string;
    graded: number;
    agree: number;
    disagree: number;
    failed: number;
    appPending: number;
  }[];
}
