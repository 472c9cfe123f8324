/**
 * A curation workspace made in SQL (recursive CTEs, one transaction): `tasks` workspace tasks
 * (category, language, services varied) with `perTask` trajectories each. Values are spread so the
 * default rules suggest all three buckets: a tenth of the tasks always fail, a tenth always pass, the
 * rest are mixed; one attempt in 40 has no value (excluded from the mean). Bodies are not written
 * (statistics never read them). Then the core is opened once, which settles every task's statistics.
 */
import { createCore } from '../../src/main/core';
import { openDb } from '../../src/main/core/db/sqlite';

const CATEGORIES = ['communication', 'finance', 'operations', 'sales', 'support', 'scheduling', 'research'];
const SERVICES = ['gmail', 'calendar', 'todo', 'contacts', 'finance', 'notes', 'kb', 'helpdesk', 'crm'];

export async function curationWorkspace(file: string, o: { tasks: number; perTask: number }): Promise<void> {
  await createCore({ workspacePath: file, watchIntervalMs: 0 }).close();
  const db = openDb(file);
  const now = '2026-03-01T09:00:00.000Z';
  // Integers are written into the SQL: better-sqlite3 binds JS numbers as REAL, and trial is a STRICT INTEGER.
  const T = Math.trunc(o.tasks);
  const cats = `json('${JSON.stringify(CATEGORIES)}') ->> (i % ${CATEGORIES.length})`;
  const svc = (k: string) => `json('${JSON.stringify(SERVICES)}') ->> (${k} % ${SERVICES.length})`;
  try {
    db.transaction(() => {
      db.prepare(
        'INSERT INTO collections (name, supersedes, description, created_at, updated_at) ' +
          "VALUES ('bench', '[]', '', ?, ?)",
      ).run(now, now);
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${T} - 1)
         INSERT INTO tasks (task_id, name, origin, split, category, difficulty, language, services, tools, warnings,
           version, content_hash, spec, source_yaml, source_path, created_at, updated_at)
         SELECT printf('task-%06d', i), 'Task ' || i, 'generated', 'general', ${cats},
           CASE i % 3 WHEN 0 THEN 'easy' WHEN 1 THEN 'medium' ELSE 'hard' END,
           CASE WHEN i % 4 = 0 THEN 'zh' ELSE 'en' END,
           json_array(${svc('i')}, ${svc('(i / 3 + 1)')}), '[]', '[]', 1, printf('%064x', i), '{}', '', '', ?, ?
         FROM n`,
      ).run(now, now);
      // Task class by i % 10: 0 always fails (UNSOLVABLE), 1 always passes (TRIVIAL), else mixed values.
      db.prepare(
        `WITH RECURSIVE n(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM n WHERE j < ${T * o.perTask} - 1),
         r AS (SELECT j, j % ${T} AS t, j / ${T} AS trial FROM n),
         v AS (SELECT j, t, trial, CASE
             WHEN j % 40 = 39 THEN NULL
             WHEN t % 10 = 0 THEN ((j * 7919) % 40) / 100.0
             WHEN t % 10 = 1 THEN 0.95 + ((j * 7919) % 6) / 100.0
             ELSE ((j * 2654435761) % 1001) / 1000.0 END AS c FROM r)
         INSERT INTO trajectories (task_id, trace_id, content_hash, model, agent, source, source_format, source_task_id,
           source_reward, source_success, trial, collection, external, valid, superseded, message_count,
           tool_call_count, char_count, completion, safety, robustness, score, passed, graded, created_at)
         SELECT printf('task-%06d', t), 'trace-' || j, printf('%064x', j), 'model-' || (j % 5), 'model-' || (j % 5),
           'run', 'studio', printf('task-%06d', t), NULL, NULL, trial, 'bench', 0, 1, 0, 10 + j % 50, j % 20,
           1000 + j % 30000, c, 1, 1, CASE WHEN c IS NULL THEN NULL ELSE round(0.8 * c + 0.2, 4) END,
           CASE WHEN c IS NULL THEN NULL ELSE (0.8 * c + 0.2) >= 0.75 END, c IS NOT NULL, ?
         FROM v`,
      ).run(now);
    })();
  } finally {
    db.close();
  }
  await createCore({ workspacePath: file, watchIntervalMs: 0 }).close();
}
