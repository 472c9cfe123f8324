import type { Db } from '../sqlite';

export const name = '0012-bucket-index';

/**
 * Bucket re-assignment without moving index entries across the whole table (issue 11).
 *
 * Curation copies a task's bucket onto every one of its trajectories (trajectories.bucket, which export
 * and the grids read), so assigning 5,000 tasks rewrites 100,000 rows. 0009's (bucket, model, score)
 * moved each of those rows' entries to another part of the index: on 1,000,000 rows it doubled the cost
 * of the bucket UPDATE (bench/README.md, Curation). (model, score, bucket) replaces it and 0009's
 * (model, score): a bucket change rewrites the entry in place (same model and score), and the grid's
 * bucket + model filter with a score sort still walks one index in score order, testing bucket in the
 * index without reading rows (SQLite sorts only score ties by id); its count is covered too.
 *
 * No trigger fires on a bucket write: curation_dirty_update (0011) lists only the columns statistics
 * read, and the search index changes only on insert and delete.
 */
export function up(db: Db): void {
  db.exec(`
    DROP INDEX IF EXISTS trajectories_bucket_model_score;
    DROP INDEX IF EXISTS trajectories_model_score;
    CREATE INDEX trajectories_model_score_bucket ON trajectories (model, score, bucket);
  `);
}
