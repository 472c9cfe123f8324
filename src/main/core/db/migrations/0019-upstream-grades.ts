import type { Db } from '../sqlite';

export const name = '0019-upstream-grades';

/**
 * Issue 19 item 6: a trace of an imported Claw-Eval task graded by the task's own grader.py (the user's checkout,
 * a subprocess) is stored beside the app's grade of the same trace, so agreement is shown per task. Every grading
 * is a row (history, never overwritten); a failed grader run is a row too, with the error named (stage, file,
 * the traceback's last line). `judge` says what judged the judged parts on both sides ('none', 'stub:<score>').
 */
export function up(db: Db): void {
  db.exec(`
    CREATE TABLE upstream_grades (
      id INTEGER PRIMARY KEY,
      task_id TEXT NOT NULL,
      trace_sha256 TEXT NOT NULL,
      judge TEXT NOT NULL,
      grader_sha256 TEXT,
      ok INTEGER NOT NULL,
      completion REAL,
      safety REAL,
      robustness REAL,
      score REAL,
      passed INTEGER,
      error TEXT,
      app_score REAL NOT NULL,
      app_passed INTEGER NOT NULL,
      app_incomplete INTEGER NOT NULL,
      created_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX upstream_grades_task ON upstream_grades (task_id, trace_sha256, id);
  `);
}
