import type { CurationRule } from '../../../shared/contract/entities/curation';
import { prepareCached, type ReadDb } from '../db/sqlite';

/** The bucket a rule suggests, or null when the task has too few usable values to judge (reported "unscored"). */
export type SuggestInput = {
  scored: number;
  min: number | null;
  max: number | null;
  passes: number;
  passKnown: number;
};
export type Bucket = 'KEEP' | 'TRIVIAL' | 'UNSOLVABLE';

/**
 * The paper groups tasks by the mean recorded completion of their attempts (§3.3, appendix E); the
 * cut-offs are ours (README): UNSOLVABLE when no attempt reaches `unsolvableBelow`, TRIVIAL when
 * every attempt reaches `trivialMin` (and, with `trivialAllPass`, every attempt whose outcome is
 * known passed), KEEP otherwise. UNSOLVABLE is tested first, so a rule with crossed cut-offs still
 * answers one bucket.
 */
export function suggestBucket(s: SuggestInput, r: CurationRule): Bucket | null {
  if (s.scored < r.minAttempts || s.max === null || s.min === null) return null;
  if (s.max < r.unsolvableBelow) return 'UNSOLVABLE';
  if (s.min >= r.trivialMin && (!r.trivialAllPass || s.passes === s.passKnown)) return 'TRIVIAL';
  return 'KEEP';
}

/** The defaults a new pool gets (README: "Default thresholds"). */
export const DEFAULT_RULE: Omit<CurationRule, 'pool' | 'updatedAt'> = {
  unsolvableBelow: 0.5,
  trivialMin: 0.95,
  trivialAllPass: true,
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
