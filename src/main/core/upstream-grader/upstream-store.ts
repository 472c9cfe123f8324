import type { Output } from '../../../shared/contract';
import type { ReadDb, WriteDb } from '../db/sqlite';
import type { UpstreamGrade } from './run-upstream';

export type UpstreamRow = {
  taskId: string;
  traceSha256: string;
  judge: string;
  graderSha256: string | null;
  upstream: UpstreamGrade;
  app: { score: number; passed: boolean; incomplete: boolean };
  at: string;
};

/** One grading, stored as a new row: earlier gradings of the same trace stay (history). */
export function insertUpstreamGrade(db: WriteDb, r: UpstreamRow): void {
  const u = r.upstream;
  db.prepare(
    `INSERT INTO upstream_grades (task_id, trace_sha256, judge, grader_sha256, ok, completion, safety, robustness,
       score, passed, error, app_score, app_passed, app_incomplete, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
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
    u.ok ? null : `${u.stage}${u.file ? ` (${u.file})` : ''}: ${u.error}`,
    r.app.score,
    r.app.passed ? 1 : 0,
    r.app.incomplete ? 1 : 0,
    r.at,
  );
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
