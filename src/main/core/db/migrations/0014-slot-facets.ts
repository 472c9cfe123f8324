import type { Db } from '../sqlite';

export const name = '0014-slot-facets';

/** The slot columns of a handful of values each; their combinations are few beside the rows. */
const SLOT_FACET_COLUMNS = ['difficulty', 'language', 'scenario', 'category', 'services'] as const;

/**
 * A set filter's value list on a large plan (issue 8, goal < 150 ms on 1,000,000 slots).
 *
 * Under a filter on another column of a handful of values (difficulty under language = zh) no
 * query over coverage_slots answers in time: it reads every matching row (~0.4–1 s on 1M slots,
 * bench/README.md). coverage_slot_facets holds one row per distinct combination of the facet
 * columns with its number of slots — ~136,000 rows for 1M random slots, as many as a grid
 * job's cross product without its dates — so a list under filters on these columns sums n over
 * the small table instead (paged-list.ts, pagedValues). Family, dates, numbers and notes stay out:
 * they would multiply the combinations up to the row count.
 *
 * Kept exact by triggers on every write, whoever makes it (app, CLI, jobs, another process).
 * A combination's row goes when its last slot does (CHECK n > 0 says so). One hazard: REPLACE
 * deletes a conflicting slot without firing the delete trigger (recursive_triggers is off), so
 * no writer of coverage_slots may use INSERT OR REPLACE (restore uses OR IGNORE).
 */
export function up(db: Db): void {
  const cols = SLOT_FACET_COLUMNS.join(', ');
  const of = (row: 'new' | 'old') => SLOT_FACET_COLUMNS.map((c) => `${row}.${c}`).join(', ');
  const key = (row: 'new' | 'old') => SLOT_FACET_COLUMNS.map((c) => `${c} = ${row}.${c}`).join(' AND ');
  // Not an upsert (INSERT … ON CONFLICT DO UPDATE): with one, every slot INSERT keeps a statement
  // journal, which tripled its CPU time; an UPDATE, then an INSERT when no row was there, adds ~50 %
  // to a slot INSERT written `INSERT OR FAIL` (slots.repo.ts says why; bench/slot-writes.bench.ts).
  const add = `UPDATE coverage_slot_facets SET n = n + 1 WHERE ${key('new')};
      INSERT INTO coverage_slot_facets (${cols}, n) SELECT ${of('new')}, 1
        WHERE NOT EXISTS (SELECT 1 FROM coverage_slot_facets WHERE ${key('new')});`;
  // The last slot of a combination removes its row; otherwise the count goes down by one.
  const remove = `DELETE FROM coverage_slot_facets WHERE ${key('old')} AND n = 1;
      UPDATE coverage_slot_facets SET n = n - 1 WHERE ${key('old')};`;
  db.exec(`
    CREATE TABLE coverage_slot_facets (
      difficulty TEXT NOT NULL,
      language   TEXT NOT NULL,
      scenario   TEXT NOT NULL,
      category   TEXT NOT NULL,
      services   TEXT NOT NULL,
      n          INTEGER NOT NULL CHECK (n > 0),
      PRIMARY KEY (${cols})
    ) STRICT, WITHOUT ROWID;
    INSERT INTO coverage_slot_facets (${cols}, n) SELECT ${cols}, count(*) FROM coverage_slots GROUP BY ${cols};

    CREATE TRIGGER coverage_slot_facets_insert AFTER INSERT ON coverage_slots BEGIN
      ${add}
    END;
    CREATE TRIGGER coverage_slot_facets_delete AFTER DELETE ON coverage_slots BEGIN
      ${remove}
    END;
    CREATE TRIGGER coverage_slot_facets_update AFTER UPDATE OF ${cols} ON coverage_slots
      WHEN (${of('old')}) IS NOT (${of('new')}) BEGIN
      ${remove}
      ${add}
    END;
  `);
}
