import { prepareCached, type WriteDb } from '../db/sqlite';

/** `IN (…)` over a JSON list of ids: one statement whatever the list's length. */
const IN_IDS = 'IN (SELECT value FROM json_each(?))';

/**
 * After restoring deleted slots (undo): their tasks are linked to them again and their generation
 * candidates come back, as the delete trigger of migration 0020 kept them — so the slot shows the
 * generated / valid counts it had, and "generate for slots below target" does not duplicate its
 * tasks. A task that was linked elsewhere since, or deleted, keeps what it has now.
 */
export function restoreSlotLinks(db: WriteDb, slotIds: readonly number[]): { tasks: number; candidates: number } {
  if (!slotIds.length) return { tasks: 0, candidates: 0 };
  const ids = JSON.stringify([...new Set(slotIds)]);
  const tasks = prepareCached(
    db,
    `UPDATE tasks SET slot_id = d.slot_id FROM deleted_slot_tasks d
     WHERE d.slot_id ${IN_IDS} AND tasks.task_id = d.task_id AND tasks.slot_id IS NULL`,
  ).run(ids).changes;
  const candidates = prepareCached(
    db,
    `INSERT OR IGNORE INTO generation_candidates
       (slot_id, seed, idx, task_id, generator, outcome, failed, reason, rounds, created_at)
     SELECT slot_id, seed, idx, task_id, generator, outcome, failed, reason, rounds, created_at
     FROM deleted_slot_candidates WHERE slot_id ${IN_IDS}`,
  ).run(ids).changes;
  prepareCached(db, `DELETE FROM deleted_slot_tasks WHERE slot_id ${IN_IDS}`).run(ids);
  prepareCached(db, `DELETE FROM deleted_slot_candidates WHERE slot_id ${IN_IDS}`).run(ids);
  return { tasks, candidates };
}
