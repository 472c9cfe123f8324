import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/main/core/db/migrate';
import { MIGRATIONS } from '../../src/main/core/db/migrations';
import { tempDir } from '../helpers/test-core';

const T = '2026-02-01T00:00:00.000Z';
const at = (name: string) => MIGRATIONS.findIndex((m) => m.name === name);

describe('0014-slot-facets on a workspace that already holds a plan', () => {
  it('counts the existing slots per combination, then follows later writes', () => {
    const file = path.join(tempDir(), 'old.coworkenv.db');
    const db = new Database(file);
    migrate(db, file, at('0014-slot-facets'));
    const insert = db.prepare(
      `INSERT INTO coverage_slots (family, services, category, difficulty, language, reference_date, scenario,
         target_count, notes, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, '2026-01-01', 'safety', 1, '', ?, ?)`,
    );
    insert.run('a', '["gmail"]', 'mail', 'easy', 'en', T, T);
    insert.run('b', '["gmail"]', 'mail', 'easy', 'en', T, T);
    insert.run('c', '["gmail","kb"]', 'mail', 'hard', 'zh', T, T);
    migrate(db, file);
    const facets = () =>
      db.prepare('SELECT services, category, difficulty, language, scenario, n FROM coverage_slot_facets').all();
    expect(facets()).toEqual([
      { services: '["gmail"]', category: 'mail', difficulty: 'easy', language: 'en', scenario: 'safety', n: 2 },
      { services: '["gmail","kb"]', category: 'mail', difficulty: 'hard', language: 'zh', scenario: 'safety', n: 1 },
    ]);
    // An edit moves a slot between combinations; the last slot of one takes its row away.
    db.prepare("UPDATE coverage_slots SET difficulty = 'easy', language = 'en', services = '[\"gmail\"]'").run();
    db.prepare("DELETE FROM coverage_slots WHERE family = 'a'").run();
    expect(facets()).toEqual([
      { services: '["gmail"]', category: 'mail', difficulty: 'easy', language: 'en', scenario: 'safety', n: 2 },
    ]);
    db.close();
  });
});
