import type { Db } from '../sqlite';

export const name = '0017-mean-buckets';

/**
 * Bucket suggestions by the paper's rule (issue 18 item 2; curation/rules.ts): the mean recorded
 * completion of a task's attempts, no longer its worst and best attempt. Stored suggestions were
 * computed by the old rule, so every task is listed in curation_dirty: the core settles at open
 * (settle.ts) and recomputes them under the new rule, as 0011 did for the first statistics.
 *
 * `trivial_all_pass` was on by default; the paper groups by the mean alone, so it is turned off in
 * the pools that still hold the old defaults and whose rule nobody ever edited (no 'rules' batch).
 * An edited rule is someone's decision and is left alone. Each change is logged like a
 * curation.setRule (a 'rules' batch with before/after), so the log says why a pool's rule moved —
 * in a workspace that has curated tasks; a new one (no task yet) just starts with the new defaults.
 * Assigned buckets are people's decisions: untouched (only `suggested` is recomputed).
 */
export function up(db: Db): void {
  const now = new Date().toISOString();
  const pools = db
    .prepare(
      `SELECT pool, min_attempts, pass_k FROM curation_rules
       WHERE unsolvable_below = 0.5 AND trivial_min = 0.95 AND trivial_all_pass = 1
         AND pool NOT IN (SELECT value FROM curation_batches WHERE kind = 'rules' AND value IS NOT NULL)
       ORDER BY pool`,
    )
    .all() as { pool: string; min_attempts: number; pass_k: number }[];
  const rule = (p: (typeof pools)[number], allPass: boolean) =>
    JSON.stringify({
      pool: p.pool,
      unsolvableBelow: 0.5,
      trivialMin: 0.95,
      trivialAllPass: allPass,
      minAttempts: p.min_attempts,
      passK: p.pass_k,
    });
  const update = db.prepare('UPDATE curation_rules SET trivial_all_pass = 0, updated_at = ? WHERE pool = ?');
  const batch = db.prepare(
    `INSERT INTO curation_batches (kind, target, value, who, at, reason, selection, changed)
     VALUES ('rules', 'rules', ?, 'migration 0017-mean-buckets', ?, ?, ?, 1)`,
  );
  const change = db.prepare('INSERT INTO curation_changes (batch_id, item, before, after) VALUES (?, ?, ?, ?)');
  const hasTasks = db.prepare('SELECT 1 FROM curation_tasks LIMIT 1').get() !== undefined;
  for (const p of pools) {
    update.run(now, p.pool);
    if (!hasTasks) continue;
    const reason = "the paper's default: buckets by mean completion alone (appendix E)";
    const id = Number(batch.run(p.pool, now, reason, JSON.stringify({ pool: p.pool })).lastInsertRowid);
    change.run(id, p.pool, rule(p, true), rule(p, false));
  }
  db.exec('INSERT OR IGNORE INTO curation_dirty (task_id) SELECT task_id FROM curation_tasks');
}
