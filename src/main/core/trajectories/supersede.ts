import { prepareCached, type WriteDb } from '../db/sqlite';

/**
 * Replacement collections (formats.md §6.4). The rule: a trajectory of collection X and task k is
 * superseded when another collection C lists X in its `supersedes` and C holds a trajectory of k
 * (any trial). `superseded_by` names C (the oldest such collection when several). It is kept true
 * from both sides: rows added to C supersede X's rows of their tasks, rows added to X later are
 * born superseded, and deleting C's last row of k lifts it. Superseded rows stay stored and
 * visible; curation and exports leave them out.
 */
export function supersession(db: WriteDb) {
  const supersedesOf = (collection: string): string[] => {
    const r = prepareCached(db, 'SELECT supersedes FROM collections WHERE name = ?').get(collection) as
      | { supersedes: string }
      | undefined;
    return r ? (JSON.parse(r.supersedes) as string[]) : [];
  };
  const supersededByAny = (collection: string): boolean =>
    prepareCached(
      db,
      'SELECT 1 FROM collections c, json_each(c.supersedes) s WHERE s.value = ? AND c.name != ? LIMIT 1',
    ).get(collection, collection) !== undefined;

  /** Brings (collection, task) rows to the rule; answers how many rows changed. */
  const recompute = (collection: string, taskId: string): number => {
    const by = prepareCached(
      db,
      `SELECT c.name FROM collections c, json_each(c.supersedes) s
       WHERE s.value = ? AND c.name != ?
         AND EXISTS (SELECT 1 FROM trajectories t WHERE t.collection = c.name AND t.task_id = ?)
       ORDER BY c.created_at, c.name LIMIT 1`,
    ).get(collection, collection, taskId) as { name: string } | undefined;
    return prepareCached(
      db,
      `UPDATE trajectories SET superseded = ?, superseded_by = ?
       WHERE collection = ? AND task_id = ? AND (superseded != ? OR superseded_by IS NOT ?)`,
    ).run(by ? 1 : 0, by?.name ?? null, collection, taskId, by ? 1 : 0, by?.name ?? null).changes;
  };

  return {
    recompute,
    /** After rows of `collection` were added for these tasks: answers how many rows became superseded. */
    afterInsert(collection: string, taskIds: Iterable<string>): number {
      const targets = supersedesOf(collection).filter((c) => c !== collection);
      const self = supersededByAny(collection);
      if (!targets.length && !self) return 0;
      let changed = 0;
      for (const k of new Set(taskIds)) {
        for (const x of targets) changed += recompute(x, k);
        if (self) changed += recompute(collection, k);
      }
      return changed;
    },
    /** After rows were deleted: their own (collection, task) pairs and the pairs they superseded. */
    afterDelete(pairs: { collection: string; task_id: string }[]): number {
      let changed = 0;
      for (const p of pairs) {
        changed += recompute(p.collection, p.task_id);
        for (const x of supersedesOf(p.collection)) if (x !== p.collection) changed += recompute(x, p.task_id);
      }
      return changed;
    },
  };
}
