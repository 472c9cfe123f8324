import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/main/core/db/migrate';
import { MIGRATIONS } from '../../src/main/core/db/migrations';
import { tempDir } from '../helpers/test-core';

const at = (name: string) => MIGRATIONS.findIndex((m) => m.name === name);
const T = '2026-02-01T00:00:00.000Z';

/** A workspace migrated up to (not including) migration `name`. */
function workspaceBefore(name: string): { db: Database.Database; file: string } {
  const file = path.join(tempDir(), 'old.coworkenv.db');
  const db = new Database(file);
  migrate(db, file, at(name));
  expect(db.pragma('user_version', { simple: true })).toBe(at(name));
  return { db, file };
}

/** A tasks row as 0003 (and 0004's defaults) define it. */
function insertTask(db: Database.Database, taskId: string, origin: string, spec: object, version = 1): void {
  db.prepare(
    `INSERT INTO tasks (task_id, name, origin, split, category, difficulty, language, services, tools, warnings,
       version, content_hash, spec, source_yaml, source_path, created_at, updated_at)
     VALUES (?, ?, ?, 'train', 'c', 'easy', 'en', '["gmail"]', '[]', '[]', ?, 'h', ?, '', '', ?, ?)`,
  ).run(taskId, `${taskId} name`, origin, version, JSON.stringify(spec), T, T);
}

function insertSlot(db: Database.Database, family: string): number {
  return Number(
    db
      .prepare(
        `INSERT INTO coverage_slots (family, services, category, difficulty, language, reference_date, scenario,
           target_count, notes, created_at, updated_at)
         VALUES (?, '["gmail"]', 'c', 'easy', 'en', '2026-01-01', 'single_service', 1, '', ?, ?)`,
      )
      .run(family, T, T).lastInsertRowid,
  );
}

describe('migrations that rewrite rows, run on a workspace holding rows of the version before', () => {
  it('0008-generation links stored TaskSpecs to the slot they name; imported tasks, unknown slots stay apart', () => {
    const { db, file } = workspaceBefore('0008-generation');
    const slot = insertSlot(db, 'fam');
    insertTask(db, 'T_gen', 'generated', { slot_id: slot, prompt: { text: 'p' } });
    insertTask(db, 'T_gone', 'generated', { slot_id: slot + 99 });
    insertTask(db, 'T_imp', 'imported', { slot_id: slot });
    migrate(db, file);
    const links = db.prepare('SELECT task_id, slot_id FROM tasks ORDER BY task_id').all();
    expect(links).toEqual([
      { task_id: 'T_gen', slot_id: slot },
      { task_id: 'T_gone', slot_id: null },
      { task_id: 'T_imp', slot_id: null },
    ]);
    db.close();
  });

  it('0010-grid keeps every validation report under its task’s current version and indexes prompts', () => {
    const { db, file } = workspaceBefore('0010-grid');
    insertTask(db, 'T_a', 'manual', { prompt: { text: '整理本周的会议纪要 meeting notes' } }, 3);
    insertTask(db, 'T_b', 'manual', { prompt: { text: 'Triage the inbox' } }, 1);
    const report = db.prepare(
      `INSERT INTO validation_reports (task_id, round, valid, verdicts, diff, candidate, created_at)
       VALUES (?, ?, ?, '[]', '', '{}', ?)`,
    );
    report.run('T_a', 1, 0, T);
    report.run('T_a', 2, 1, T);
    report.run('T_b', 1, 1, T);
    migrate(db, file);
    expect(
      db.prepare('SELECT task_id, task_version, round, valid FROM validation_reports ORDER BY task_id, round').all(),
    ).toEqual([
      { task_id: 'T_a', task_version: 3, round: 1, valid: 0 },
      { task_id: 'T_a', task_version: 3, round: 2, valid: 1 },
      { task_id: 'T_b', task_version: 1, round: 1, valid: 1 },
    ]);
    const hits = db.prepare("SELECT task_id FROM tasks_fts WHERE tasks_fts MATCH '会议纪要'").all();
    expect(hits).toEqual([{ task_id: 'T_a' }]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();
  });
});
