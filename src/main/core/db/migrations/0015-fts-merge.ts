import type { Db } from '../sqlite';

export const name = '0015-fts-merge';

/**
 * Search index merge settings for bulk writes (issue 10, bench/README.md "Trajectory import").
 *
 * FTS5 writes each committed batch as a new index segment and merges segments as they pile up:
 * automerge 4 (merge once 4 segments share a level) and crisismerge 16 by default. An import commits
 * a batch every few hundred trajectories, so at 100,000 trajectories those merges rewrote the index
 * again and again: about 12 % of the search index's writing time, on the thread that commits. With
 * automerge 8 and crisismerge 32 the same texts are indexed with ~1 s less CPU per 100,000, and the
 * index ends with about as many segments (11 vs 10): the same matches for word, prefix, phrase and
 * NEAR queries, at the same speed (measured on the bench corpus). Both settings are stored in the
 * index's own config table, so every connection and every later write uses them.
 */
export function up(db: Db): void {
  db.exec(`
    INSERT INTO trajectories_fts (trajectories_fts, rank) VALUES ('automerge', 8);
    INSERT INTO trajectories_fts (trajectories_fts, rank) VALUES ('crisismerge', 32);
  `);
}
