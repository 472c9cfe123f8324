/**
 * A workspace holding `n` trajectory rows for grid timings, made in SQL (a recursive CTE) in one
 * transaction: 12 models, 4 buckets (NULL = not curated yet) in uneven shares, 20 collections,
 * 5,000 tasks × trials, scores and source rewards spread over [0, 1], a tenth superseded. A task's
 * bucket is assigned in curation_tasks (statistics are settled at the next open). Bodies
 * are not written: the grid never reads them.
 */
import { createCore } from '../../src/main/core';
import { openDb } from '../../src/main/core/db/sqlite';

export const MODELS = Array.from({ length: 12 }, (_, i) => `model-${i}`);
export const BUCKETS = ['KEEP', 'TRIVIAL', 'UNSOLVABLE'];

export async function gridWorkspace(file: string, n: number): Promise<void> {
  await createCore({ workspacePath: file, watchIntervalMs: 0 }).close();
  const db = openDb(file);
  try {
    const now = '2026-03-01T09:00:00.000Z';
    db.transaction(() => {
      for (let c = 0; c < 20; c++)
        db.prepare(
          "INSERT INTO collections (name, supersedes, description, created_at, updated_at) VALUES (?, '[]', '', ?, ?)",
        ).run(`collection-${c}`, now, now);
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO trajectories (task_id, trace_id, content_hash, model, agent, source, source_format, source_task_id,
           source_reward, source_success, trial, collection, external, valid, superseded,
           message_count, tool_call_count, char_count, tokens, duration_ms, completion, safety, robustness, score, ` +
          `passed,
           graded, created_at)
         SELECT 'task-' || (i % 5000), 'trace-' || i, printf('%064x', i), 'model-' || (i * 7 % 12), 'model-' || (i ` +
          `* 7 % 12),
           'import', 'messages-jsonl', 'task-' || (i % 5000),
           ((i * 2654435761) % 1000) / 1000.0, (i % 3 = 0), i / 5000, 'collection-' || (i % 20), 0, 1, (i % 10 = 0),
           10 + i % 60, i % 25, 1000 + (i * 31) % 40000, 2000 + i % 90000, 1000 + i % 600000,
           ((i * 40503) % 1000) / 1000.0, 1, 1.0, round(0.2 + 0.8 * ((i * 40503) % 1000) / 1000.0, 4),
           (0.2 + 0.8 * ((i * 40503) % 1000) / 1000.0) >= 0.75, 1,
           strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || (i * 3) || ' seconds')
         FROM n`,
      ).run(n);
      // Each task's assigned bucket (a trajectory's bucket is its task's), by task number k = i % 5000: k % 10
      // as the shares above. Statistics are added to these rows by the settle at the next open.
      db.prepare(
        `WITH RECURSIVE k(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM k WHERE k < 4999)
         INSERT INTO curation_tasks (task_id, attempts, scored, passes, pass_known, bucket, stats_at)
         SELECT 'task-' || k, 0, 0, 0, 0, CASE k % 10 WHEN 0 THEN NULL WHEN 1 THEN 'TRIVIAL' WHEN 2 THEN 'UNSOLVABLE'
           WHEN 3 THEN 'UNSOLVABLE' ELSE 'KEEP' END, ? FROM k`,
      ).run(now);
    })();
  } finally {
    db.close();
  }
}
