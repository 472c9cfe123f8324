import type { Db } from '../sqlite';

export const name = '0020-undo-history';

/**
 * What an undo must bring back (issue 21 items 3 and 4).
 *
 * - task_versions.spec: the task's spec JSON as each version had it, so "revert to this" and undo
 *   restore checks too (and re-grade). Versions written before this migration have no spec (NULL)
 *   except each task's current one, which is the spec stored now.
 * - Deleting a plan slot nulls its tasks' slot_id (ON DELETE SET NULL) and drops its generation
 *   candidates (ON DELETE CASCADE): an undone delete came back with 0 generated / 0 valid, and
 *   "generate for slots below target" would then make duplicates. A trigger keeps both, per slot id,
 *   before the delete; restoring the slot (plan/slot-links.ts) puts them back. A slot deleted again
 *   replaces what its id had kept, so a new slot that reused a deleted id never inherits its links.
 */
export function up(db: Db): void {
  db.exec(`
    ALTER TABLE task_versions ADD COLUMN spec TEXT;
    UPDATE task_versions SET spec = (SELECT t.spec FROM tasks t WHERE t.task_id = task_versions.task_id)
     WHERE version = (SELECT t.version FROM tasks t WHERE t.task_id = task_versions.task_id);

    CREATE TABLE deleted_slot_tasks (
      slot_id INTEGER NOT NULL,
      task_id TEXT NOT NULL,
      PRIMARY KEY (slot_id, task_id)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE deleted_slot_candidates (
      slot_id    INTEGER NOT NULL,
      seed       INTEGER NOT NULL,
      idx        INTEGER NOT NULL,
      task_id    TEXT NOT NULL,
      generator  TEXT NOT NULL,
      outcome    TEXT NOT NULL,
      failed     TEXT,
      reason     TEXT NOT NULL,
      rounds     TEXT NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (slot_id, seed, idx)
    ) STRICT;
    CREATE TRIGGER coverage_slots_keep_links BEFORE DELETE ON coverage_slots BEGIN
      DELETE FROM deleted_slot_tasks WHERE slot_id = OLD.id;
      DELETE FROM deleted_slot_candidates WHERE slot_id = OLD.id;
      INSERT INTO deleted_slot_tasks (slot_id, task_id) SELECT OLD.id, task_id FROM tasks WHERE slot_id = OLD.id;
      INSERT INTO deleted_slot_candidates
        SELECT slot_id, seed, idx, task_id, generator, outcome, failed, reason, rounds, created_at
        FROM generation_candidates WHERE slot_id = OLD.id;
    END;
  `);
}
