import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/main/core/db/migrate';

const task = (id: string, origin: string, spec: unknown) => [
  id,
  id,
  origin,
  'general',
  'ops',
  'easy',
  'en',
  '[]',
  '[]',
  '[]',
  1,
  `h-${id}`,
  typeof spec === 'string' ? spec : JSON.stringify(spec),
  '',
  '',
  't',
  't',
];

describe('migration 0008-generation', () => {
  it('links stored TaskSpecs that name an existing slot, and only those', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, ':memory:', 7);
    db.prepare(
      `INSERT INTO coverage_slots (id, family, services, category, difficulty, language, reference_date, scenario, ` +
        `target_count, created_at, updated_at)
       VALUES (4, 'f', '["gmail"]', 'c', 'easy', 'en', '2026-03-02', 'single_service', 3, 't', 't')`,
    ).run();
    const ins = db.prepare(
      `INSERT INTO tasks (task_id, name, origin, split, category, difficulty, language, services, tools, warnings, ` +
        `version, content_hash, spec, source_yaml, source_path, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    ins.run(...task('gen', 'generated', { slot_id: 4 }));
    ins.run(...task('manual', 'manual', { slot_id: 99 })); // no such slot: stays unlinked
    ins.run(...task('imported', 'imported', { slot_id: 4 })); // a task.yaml model: never linked
    ins.run(...task('plain', 'manual', { task_id: 'plain' }));
    migrate(db, ':memory:', 8);
    expect(db.prepare('SELECT task_id, slot_id FROM tasks ORDER BY task_id').all()).toEqual([
      { task_id: 'gen', slot_id: 4 },
      { task_id: 'imported', slot_id: null },
      { task_id: 'manual', slot_id: null },
      { task_id: 'plain', slot_id: null },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();
  });
});
