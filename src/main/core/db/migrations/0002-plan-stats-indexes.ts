import type { Db } from '../sqlite';

export const name = '0002-plan-stats-indexes';

/**
 * Covering indexes for plan.stats: its per-difficulty, per-language and per-service-set sums read
 * these instead of looking up every row (134 ms → ~20 ms on 100,000 slots, bench/plan-query.bench.ts).
 * The single-column indexes of 0001 stay: they give the grid's ORDER BY <col>, id without a sort.
 */
export function up(db: Db): void {
  db.exec(`
    CREATE INDEX coverage_slots_difficulty_target ON coverage_slots (difficulty, target_count);
    CREATE INDEX coverage_slots_language_target   ON coverage_slots (language, target_count);
    CREATE INDEX coverage_slots_services_target   ON coverage_slots (services, target_count);
  `);
}
