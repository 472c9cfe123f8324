/**
 * Grows a workspace's trajectories to `n` rows straight in SQLite, for memory figures at sizes an
 * import would take hours to reach: each new row copies a stored one (id order, cycling) with a new
 * id, a trial 1,000 × the cycle higher (so (task, trial) stays distinct), every 100th a duplicate of
 * the previous cycle's copy, and reward 0 so the export rejects it on its metadata (its body, not
 * copied, is never read). The imported rows keep their bodies and are exported as usual.
 */
import { openDb } from '../../src/main/core/db/sqlite';

const CHUNK = 100_000;

/** Grows to `n` rows, copying the rows with ids 1..`base` (an import's, contiguous). */
export function growTrajectories(workspace: string, n: number, base: number): number {
  const db = openDb(workspace);
  try {
    const count = (sql: string, ...p: number[]) => (db.prepare(sql).get(...p) as { n: number }).n;
    if (count('SELECT count(*) AS n FROM trajectories WHERE id <= ?', base) !== base)
      throw new Error(`the rows to copy are not ids 1..${base}`);
    const cols = (db.prepare('PRAGMA table_info(trajectories)').all() as { name: string }[]).map((c) => c.name);
    const set: Record<string, string> = {
      id: 'NULL',
      trial: 'b.trial + 1000 * (g.i / ?3 - (g.i % 100 = 0))',
      trace_id: "b.trace_id || '-' || g.i",
      content_hash: "b.content_hash || '-' || g.i",
      source_reward: '0',
      source_completion: 'NULL',
      completion: 'NULL',
      score: 'NULL',
      graded: '0',
      passed: 'NULL',
    };
    const insert = db.prepare(`
      WITH RECURSIVE g(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM g WHERE i + 1 < ?2)
      INSERT INTO trajectories (${cols.join(', ')})
      SELECT ${cols.map((c) => set[c] ?? `b.${c}`).join(', ')} FROM g JOIN trajectories b ON b.id = g.i % ?3 + 1`);
    let have = count('SELECT count(*) AS n FROM trajectories');
    while (have < n) {
      const upTo = Math.min(n, have + CHUNK);
      // Numbered parameters bind by name in better-sqlite3; BigInt binds INTEGER (a number binds REAL: g.i / base).
      db.transaction(() => insert.run({ 1: BigInt(have), 2: BigInt(upTo), 3: BigInt(base) }))();
      have = upTo;
    }
    return have;
  } finally {
    db.close();
  }
}
