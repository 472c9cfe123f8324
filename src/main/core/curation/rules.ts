import type { CurationRule } from '../../../shared/contract/entities/curation';
import { prepareCached, type ReadDb } from '../db/sqlite';

/** The bucket a rule suggests, or null when the task has too few usable values to judge (reported "unscored"). */
export type SuggestInput = {
  scored: number;
  /** Mean recorded completion over the scored attempts (stats.ts: completion, else reward; missing excluded). */
  mean: number | null;
  passes: number;
  passKnown: number;
};
export type Bucket = 'KEEP' | 'TRIVIAL' | 'UNSOLVABLE';

/**
 * The paper's task selection (formats.md §6.3, appendix E): "Each task's score is the mean recorded
 * completion over its records", completion preferred over reward, missing or unparseable values
 * excluded (stats.ts computes that mean). The bucket follows that mean alone — not the worst or best
 * attempt: [1, 0, 0] is a task solved once in three (mean 0.33, UNSOLVABLE), not a KEEP because one
 * attempt passed. UNSOLVABLE when the mean is below `unsolvableBelow`; TRIVIAL when it is at least
 * `trivialMin` (and, with the opt-in `trivialAllPass`, every attempt whose outcome is known passed);
 * KEEP otherwise. UNSOLVABLE is tested first, so a rule with crossed cut-offs still answers one bucket.
 */
export function suggestBucket(s: SuggestInput, r: CurationRule): Bucket | null {
  if (s.scored < r.minAttempts || s.mean === null) return null;
  if (s.mean < r.unsolvableBelow) return 'UNSOLVABLE';
  if (s.mean >= r.trivialMin && (!r.trivialAllPass || s.passes === s.passKnown)) return 'TRIVIAL';
  return 'KEEP';
}

/**
 * The defaults a new pool gets (README: "Default thresholds"). The cut-offs are ours: formats.md
 * §6.3 says "The bucket cut-offs are per-pool settings, editable in the curation grid, and written
 * to the manifest [ours]. This reference does not fix defaults." The values are the ones the pools
 * always had, now applied to the mean. `trivialAllPass` is off: the paper groups by the mean alone
 * (migration 0017 turned it off in pools nobody had edited).
 */
export const DEFAULT_RULE: Omit<CurationRule, 'pool' | 'updatedAt'> = {
  unsolvableBelow: 0.5,
  trivialMin: 0.95,
  trivialAllPass: false,
  minAttempts: 1,
  passK: 3,
};

type RawRule = {
  pool: string;
  unsolvable_below: number;
  trivial_min: number;
  trivial_all_pass: number;
  min_attempts: number;
  pass_k: number;
  updated_at: string;
};

export function readRules(db: ReadDb): Map<string, CurationRule> {
  const rows = prepareCached(db, 'SELECT * FROM curation_rules ORDER BY pool').all() as RawRule[];
  return new Map(
    rows.map((r) => [
      r.pool,
      {
        pool: r.pool,
        unsolvableBelow: r.unsolvable_below,
        trivialMin: r.trivial_min,
        trivialAllPass: r.trivial_all_pass === 1,
        minAttempts: r.min_attempts,
        passK: r.pass_k,
        updatedAt: r.updated_at,
      },
    ]),
  );
}

/** A pool without a row of its own (a pool name typed on a task) is judged by the defaults. */
export const ruleOf = (rules: Map<string, CurationRule>, pool: string): CurationRule =>
  rules.get(pool) ?? { pool, updatedAt: '', ...DEFAULT_RULE };
