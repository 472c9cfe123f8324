import { cjkText } from '../../trajectories/cjk-search';
import { ContextCache, loadTrajectory } from '../../trajectories/load-trajectory';
import { indexForSearch } from '../../trajectories/search-text';
import type { SourceFormat } from '../../../../shared/contract/entities/trajectory';
import { type Db, readHandle } from '../sqlite';

export const name = '0021-cjk-search';

/**
 * Substring search in Chinese, Japanese and Korean text (issue 21 item 8; trajectories/cjk-search.ts).
 * trajectories_cjk: an FTS5 trigram index over the CJK runs of each trajectory's search text (a row
 * only for a trajectory that has some). With content, unlike trajectories_fts: a 1–2 character term
 * is matched with LIKE on that text. The word index stays as it is for every other language.
 */
export function up(db: Db): void {
  db.exec(`
    CREATE VIRTUAL TABLE trajectories_cjk USING fts5 (text, tokenize = 'trigram');
    CREATE TRIGGER trajectories_cjk_delete AFTER DELETE ON trajectories BEGIN
      DELETE FROM trajectories_cjk WHERE rowid = old.id;
    END;
  `);
  // .all(), not .iterate(): better-sqlite3 refuses a write while an iterator is open on the connection.
  const rows = db
    .prepare(
      'SELECT t.id, t.source_format, b.raw, b.context_id, b.file, b.line, b.trajectory, b.grade ' +
        'FROM trajectories t JOIN trajectory_bodies b ON b.trajectory_id = t.id',
    )
    .all() as ({ id: number; source_format: SourceFormat } & Parameters<typeof loadTrajectory>[2])[];
  const insert = db.prepare('INSERT INTO trajectories_cjk (rowid, text) VALUES (?, ?)');
  const read = readHandle(db); // loadTrajectory reads the contexts table
  const contexts = new ContextCache(read);
  for (const r of rows) {
    const text = cjkText(indexForSearch(readable(() => loadTrajectory(read, r.source_format, r, contexts))));
    if (text) insert.run(r.id, text);
  }
}

/**
 * A stored body today's reader refuses (written by an older reader) keeps its row and its word
 * index entry; it only lacks CJK substring search, as the viewer would show its error anyway.
 */
function readable(load: () => Parameters<typeof indexForSearch>[0]) {
  try {
    return load();
  } catch {
    return { messages: [] };
  }
}
