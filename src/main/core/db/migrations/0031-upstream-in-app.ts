import type { Db } from '../sqlite';

export const name = '0031-upstream-in-app';

/**
 * Issue 19 item 6 in the app (issue 21): stored trajectories graded by their task's own grader.py from the Trajectories
 * page. Every grading stays a row of upstream_grades (history, migration 0019), now naming the trajectory it graded
 * (NULL for the CLI's `grade --upstream`, which grades a trace file). The latest one is copied onto the trajectory so
 * the grid sorts and filters on it like on the app's score columns:
 * - upstream_grade_id: the upstream_grades row (NULL: never graded upstream);
 * - upstream_score / upstream_passed / upstream_completion: what grader.py answered, NULL when it failed;
 * - upstream_error: why it failed ("stage (file): last line"), NULL when it answered. A failure is never a 0.
 * Agreement with the app's grade is computed when read (upstream-columns.ts), so a re-grade moves it at once.
 */
export function up(db: Db): void {
  db.exec(`
    ALTER TABLE upstream_grades ADD COLUMN trajectory_id INTEGER;
    CREATE INDEX upstream_grades_trajectory ON upstream_grades (trajectory_id, id) WHERE trajectory_id IS NOT NULL;
    ALTER TABLE trajectories ADD COLUMN upstream_grade_id INTEGER;
    ALTER TABLE trajectories ADD COLUMN upstream_score REAL;
    ALTER TABLE trajectories ADD COLUMN upstream_passed INTEGER;
    ALTER TABLE trajectories ADD COLUMN upstream_completion REAL;
    ALTER TABLE trajectories ADD COLUMN upstream_error TEXT;
  `);
}
