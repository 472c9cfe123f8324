import type { CurationRule } from '../../../shared/contract/entities/curation';
import { prepareCached, type ReadDb } from '../db/sqlite';
import { type Bucket, readRules, ruleOf, suggestBucket } from './rules';

type StatRow = {
  suggested: Bucket | null;
  bucket: Bucket | null;
  scored: number;
  mean: number | null;
  passes: number;
  pass_known: number;
};

/** `null` in a transition: no suggestion (too few usable values). */
export type RulePreview = {
  pool: string;
  tasks: number;
  /** Tasks whose suggestion the edited rule changes. */
  changed: number;
  transitions: { from: Bucket | null; to: Bucket | null; count: number }[];
  /** Tasks whose assigned bucket differs from their new suggestion ("Apply suggestions" would move them). */
  assignedDiffer: number;
};

/**
 * What an edit of one pool's rule would do, before it is applied: each task of the pool suggested
 * again from its stored statistics (the same suggestBucket the settle step runs), compared with
 * its suggestion now. Reads only; setRule writes the same outcome.
 */
export function previewRule(
  db: ReadDb,
  edit: Partial<Omit<CurationRule, 'updatedAt'>> & { pool: string },
): RulePreview {
  const next: CurationRule = { ...ruleOf(readRules(db), edit.pool), ...edit };
  const rows = prepareCached(
    db,
    `SELECT suggested, bucket, scored, mean_completion AS mean, passes, pass_known FROM curation_tasks WHERE pool = ?`,
  ).all(edit.pool) as StatRow[];
  const counts = new Map<string, { from: Bucket | null; to: Bucket | null; count: number }>();
  let assignedDiffer = 0;
  for (const r of rows) {
    const to = suggestBucket({ scored: r.scored, mean: r.mean, passes: r.passes, passKnown: r.pass_known }, next);
    if (r.bucket !== null && to !== null && r.bucket !== to) assignedDiffer++;
    if (to === r.suggested) continue;
    const key = `${r.suggested}>${to}`;
    const t = counts.get(key) ?? { from: r.suggested, to, count: 0 };
    t.count++;
    counts.set(key, t);
  }
  const transitions = [...counts.values()].sort((a, b) => b.count - a.count);
  return {
    pool: edit.pool,
    tasks: rows.length,
    changed: transitions.reduce((n, t) => n + t.count, 0),
    transitions,
    assignedDiffer,
  };
}
