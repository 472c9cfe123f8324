import { AppError } from '../lib/errors';

export type TextFilter = { query: string; mode: 'words' | 'fts' };

/** words mode: every word must occur; a trailing * keeps prefix search; quotes make the rest literal. */
export function wordsQuery(q: string): string {
  return q
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => {
      const prefix = w.endsWith('*') && w.length > 1;
      const word = (prefix ? w.slice(0, -1) : w).replace(/"/g, '""');
      return `"${word}"${prefix ? '*' : ''}`;
    })
    .join(' ');
}

/** The FTS5 MATCH text of a search; a query with no words is refused. */
export function matchOf(t: TextFilter): string {
  const match = t.mode === 'words' ? wordsQuery(t.query) : t.query;
  if (!match.trim())
    throw new AppError('INVALID_INPUT', 'the query has no words', [{ path: ['query'], message: 'empty' }]);
  return match;
}

/** The grid's full-text condition on `trajectories` (its id is the FTS rowid). */
export const textWhere = (t: TextFilter | undefined) =>
  t
    ? { sql: 'id IN (SELECT rowid FROM trajectories_fts WHERE trajectories_fts MATCH ?)', params: [matchOf(t)] }
    : undefined;

/**
 * Runs a read that holds a MATCH: an SQLITE_ERROR there is the query's (unterminated string,
 * syntax, unknown column) — the statements are fixed — so it becomes INVALID_INPUT naming it.
 */
export function withFtsErrors<T>(read: () => T, path = 'query'): T {
  try {
    return read();
  } catch (err) {
    if ((err as { code?: string }).code !== 'SQLITE_ERROR') throw err;
    throw new AppError('INVALID_INPUT', `not a valid search: ${(err as Error).message}`, [
      { path: [path], message: (err as Error).message },
    ]);
  }
}
