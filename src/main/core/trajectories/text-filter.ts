import { cjkConditions, splitCjk } from './cjk-search';
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

/**
 * A search as the parts each index answers: `match` for the word index (null when the query is
 * CJK only), `cjk` the terms found as substrings (words mode; fts mode passes FTS5 syntax through).
 */
export function searchOf(t: TextFilter): { match: string | null; cjk: string[] } {
  if (t.mode !== 'words') return { match: matchOf(t), cjk: [] };
  const { words, cjk } = splitCjk(t.query);
  if (!cjk.length) return { match: matchOf(t), cjk };
  return { match: words ? wordsQuery(words) : null, cjk };
}

/** The ids a search finds, as one `SELECT rowid …` (INTERSECT of the word match and each CJK term). */
export function textIds(t: TextFilter): { sql: string; params: unknown[] } {
  const { match, cjk } = searchOf(t);
  const parts = [
    ...(match ? [{ sql: 'SELECT rowid FROM trajectories_fts WHERE trajectories_fts MATCH ?', params: [match] }] : []),
    ...cjkConditions(cjk),
  ];
  return { sql: parts.map((p) => p.sql).join(' INTERSECT '), params: parts.flatMap((p) => p.params) };
}

/** The grid's full-text condition on `trajectories` (its id is the FTS rowid). */
export const textWhere = (t: TextFilter | undefined) => {
  if (!t) return undefined;
  const ids = textIds(t);
  return { sql: `id IN (${ids.sql})`, params: ids.params };
};

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
