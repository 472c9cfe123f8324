import { createHash } from 'node:crypto';
import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import { prepareCached, type WriteDb } from '../db/sqlite';

/**
 * Store a task that is a TaskSpec itself (generated or written by hand; records inline), as a new
 * version when its content changed (inside the caller's transaction). Like a re-import, changed
 * content goes back to unvalidated. A `slot_id` naming an existing plan slot links the task to it
 * (otherwise the link is empty). Answers the version stored.
 */
export function storeTaskSpec(
  db: WriteDb,
  spec: TaskSpec,
  o: { origin: 'generated' | 'manual'; now: string; reason?: string },
): number {
  const json = JSON.stringify(spec);
  const hash = createHash('sha256').update(json).digest('hex');
  const prev = prepareCached(db, 'SELECT version, content_hash AS hash FROM tasks WHERE task_id = ?').get(
    spec.task_id,
  ) as { version: number; hash: string } | undefined;
  if (prev?.hash === hash) return prev.version;
  const version = (prev?.version ?? 0) + 1;
  prepareCached(
    db,
    `INSERT INTO tasks (task_id, name, origin, split, category, difficulty, language, services, tools, warnings, ` +
      `version, content_hash, spec, source_yaml, source_path, created_at, updated_at, slot_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', ?, ?, ?, '', '', ?, ?, (SELECT id FROM coverage_slots WHERE id = ?))
     ON CONFLICT (task_id) DO UPDATE SET name = excluded.name, origin = excluded.origin, split = excluded.split, ` +
      `category = excluded.category, difficulty = excluded.difficulty, slot_id = excluded.slot_id,
       language = excluded.language, services = excluded.services, tools = excluded.tools, version = ` +
      `excluded.version, content_hash = excluded.content_hash,
       spec = excluded.spec, updated_at = excluded.updated_at, validation_status = 'unvalidated', failed_validator = ` +
      `NULL`,
  ).run(
    spec.task_id,
    spec.task_name,
    o.origin,
    spec.user_agent?.enabled ? 'multi_turn' : 'general',
    spec.category,
    spec.difficulty,
    spec.language,
    JSON.stringify(spec.services.map((s) => s.name)),
    JSON.stringify(spec.tools.map((t) => t.name)),
    version,
    hash,
    json,
    o.now,
    o.now,
    spec.slot_id ?? null,
  );
  prepareCached(db, 'DELETE FROM validation_reports WHERE task_id = ?').run(spec.task_id);
  prepareCached(
    db,
    'INSERT OR REPLACE INTO task_versions (task_id, version, content_hash, reason, fixtures, created_at, spec) ' +
      'VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(spec.task_id, version, hash, o.reason ?? (prev ? 'edited spec' : `${o.origin} task`), '{}', o.now, json);
  return version;
}
