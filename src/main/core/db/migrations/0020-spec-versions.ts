import type { Db } from '../sqlite';

export const name = '0020-spec-versions';

/**
 * Checks are versioned like fixtures (issue 21 item 3): task_versions.spec keeps the task's spec
 * JSON as each version had it, so "revert to this" and undo restore checks too (and re-grade).
 * Versions written before this migration have no spec (NULL) except each task's current one,
 * which is the spec stored now: a revert to an older version restores its fixtures only and says so.
 */
export function up(db: Db): void {
  db.exec(`
    ALTER TABLE task_versions ADD COLUMN spec TEXT;
    UPDATE task_versions SET spec = (SELECT t.spec FROM tasks t WHERE t.task_id = task_versions.task_id)
     WHERE version = (SELECT t.version FROM tasks t WHERE t.task_id = task_versions.task_id);
  `);
}
