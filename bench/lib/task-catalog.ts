/**
 * A task catalog of `n` rows for grid timings, made in SQL (a recursive CTE) in one transaction, the
 * way trajectory-grid.ts makes trajectories: 40 families × 12 categories, 3 difficulties, 2 languages,
 * 1–3 services, 3 splits, 3 validation states, a short prompt in the spec (the FTS triggers index it
 * as they do on import). Fixture files and versions are not written: the grid never reads them.
 */
import { openDb } from '../../src/main/core/db/sqlite';
import { SERVICE_IDS } from '../../src/shared/contract/entities/slot';

export function fillTasks(file: string, n: number): void {
  const db = openDb(file);
  try {
    const services = JSON.stringify(SERVICE_IDS);
    const k = SERVICE_IDS.length;
    db.transaction(() => {
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?),
              s(i, a, b, zh) AS (SELECT i, ? ->> ('$[' || (i * 7 % ${k}) || ']'),
                                  ? ->> ('$[' || ((i * 7 + 1 + i % 3) % ${k}) || ']'), i % 4 = 0 FROM n)
         INSERT INTO tasks (task_id, name, origin, split, category, difficulty, language, services, tools, warnings,
           version, content_hash, spec, source_yaml, source_path, created_at, updated_at, validation_status,
           failed_validator)
         SELECT printf('T%06d%s_family_%02d', i, iif(zh, 'zh', ''), i % 40),
           iif(zh, '检查库存并回复客户 ' || i, 'Check the inventory and answer the customer #' || i),
           iif(i % 5 = 0, 'imported', 'generated'),
           CASE i % 10 WHEN 0 THEN 'test' WHEN 1 THEN 'dev' ELSE 'train' END,
           'category-' || (i % 12), CASE i % 3 WHEN 0 THEN 'easy' WHEN 1 THEN 'medium' ELSE 'hard' END,
           iif(zh, 'zh', 'en'), iif(i % 3 = 0, json_array(a), json_array(a, b)),
           json_array(a || '_list', a || '_get'), '[]', 1 + i % 3, printf('%064x', i),
           json_object('prompt', json_object('text',
             iif(zh, '请检查库存，找出低于再订货点的商品，并起草给供应商的邮件。', 'Find the items below their reorder point ' ||
               'and draft an email to the supplier, then reply to the customer.'))),
           '', 'generated/' || i || '/task.yaml',
           strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || (i * 3) || ' seconds'),
           strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || (i * 3) || ' seconds'),
           CASE i % 7 WHEN 0 THEN 'invalid' WHEN 1 THEN 'unvalidated' ELSE 'valid' END,
           iif(i % 7 = 0, 'fixture_consistency', NULL)
         FROM s`,
      ).run(n, services, services);
    })();
  } finally {
    db.close();
  }
}
