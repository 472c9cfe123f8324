import { prepareCached, type WriteDb } from '../db/sqlite';
import type { ScoreBasis } from './score-basis';

/** Collections (a run's or an import's rows, and the collections they supersede): writes in the caller's batch. */
export function collectionsWriter(db: WriteDb) {
  return {
    /**
     * Creates the collection, or adds to what it supersedes. A new collection's score basis (migration 0018):
     * `recorded` for imports, `app` for the app's own runs; an existing one keeps its (someone may have chosen).
     */
    ensureCollection(name: string, supersedes: string[], now: string, basis: ScoreBasis = 'recorded'): void {
      const r = prepareCached(db, 'SELECT supersedes FROM collections WHERE name = ?').get(name) as
        | { supersedes: string }
        | undefined;
      if (!r) {
        prepareCached(
          db,
          'INSERT INTO collections (name, supersedes, description, created_at, updated_at, score_basis) ' +
            'VALUES (?, ?, ?, ?, ?, ?)',
        ).run(name, JSON.stringify([...new Set(supersedes)]), '', now, now, basis);
        return;
      }
      const before = JSON.parse(r.supersedes) as string[];
      const merged = [...new Set([...before, ...supersedes])];
      if (merged.length !== before.length)
        prepareCached(db, 'UPDATE collections SET supersedes = ?, updated_at = ? WHERE name = ?').run(
          JSON.stringify(merged),
          now,
          name,
        );
    },
  };
}
