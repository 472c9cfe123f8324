import type { Db } from '../sqlite';

export const name = '0008-generation';

/**
 * Generation (DESIGN.md §7): a task remembers the plan slot it was made for (indexed, so the plan
 * grid counts a slot's valid tasks with one index range), and every candidate a generation run
 * made keeps its outcome — valid first time, repaired, or discarded with the reason — so per-slot
 * counts are SQL aggregates. Discarded candidates are not tasks: their rounds live here.
 */
export function up(db: Db): void {
  db.exec(
    `
    ALTER TABLE tasks ADD COLUMN slot_id INTEGER REFERENCES coverage_slots (id) ON DELETE SET NULL;
    CREATE INDEX tasks_slot ON tasks (slot_id, validation_status);
    -- TaskSpecs stored before this migration (hand-written, generated) that name an existing slot.
    UPDATE tasks SET slot_id = json_extract(spec, '$.slot_id')
      WHERE origin <> 'imported' AND json_valid(spec)
        AND json_extract(spec, '$.slot_id') IN (SELECT id FROM coverage_slots);

    CREATE TABLE generation_candidates (
      slot_id    INTEGER NOT NULL REFERENCES coverage_slots (id) ON DELETE CASCADE,
      seed       INTEGER NOT NULL,
      idx        INTEGER NOT NULL,      -- the candidate's position in the slot's run with this seed
      task_id    TEXT NOT NULL,
      generator  TEXT NOT NULL,         -- procedural (llm later)
      outcome    TEXT NOT NULL CHECK (outcome IN ('valid', 'repaired', 'discarded')),
      failed     TEXT,                  -- discarded: the first failed validator of the last round
      reason     TEXT NOT NULL,         -- discarded: every failed verdict, one line each; else ''
      rounds     TEXT NOT NULL,         -- JSON: discarded: the rounds with their candidates; accepted: [] (the ` +
      `task's validation report has them)
      created_at TEXT NOT NULL,
      PRIMARY KEY (slot_id, seed, idx)
    ) STRICT;
    CREATE INDEX generation_candidates_outcome ON generation_candidates (slot_id, outcome, failed);
  `,
  );
}
