/**
 * Substring search for Chinese, Japanese and Korean text (issue 21 item 8). The word index
 * (unicode61) reads a run of CJK characters as one token, so '万象' found nothing inside a clause
 * that holds it. The CJK runs of each trajectory's search text go into trajectories_cjk, an FTS5
 * trigram index (migration 0021): a term of ≥ 3 characters is a trigram MATCH; a 1–2 character term
 * (trigrams cannot index it) is a LIKE over that table's text, which holds only the CJK runs, so the
 * scan reads a small fraction of what the full text would be (bench/cjk-search.bench.ts).
 */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3005\u30fc]+/gu;
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The CJK runs of a search text, one a line ('' when it has none: no row is indexed then). */
export const cjkText = (text: string): string => (text.match(CJK) ?? []).join('\n');

export const hasCjk = (s: string): boolean => HAS_CJK.test(s);

/**
 * A words-mode query split for the two indexes: the CJK runs of every word are CJK terms (matched
 * as substrings); what is left of the words goes to the word index as before. Adjacent CJK and
 * Latin text in one word ('万象abc') becomes two terms, both required.
 */
export function splitCjk(query: string): { words: string; cjk: string[] } {
  const words: string[] = [];
  const cjk: string[] = [];
  for (const w of query.split(/\s+/).filter(Boolean)) {
    if (!hasCjk(w)) {
      words.push(w);
      continue;
    }
    cjk.push(...(w.match(CJK) ?? []));
    const rest = w.replace(CJK, ' ').replace(/["*]/g, ' ').trim();
    if (rest) words.push(...rest.split(/\s+/));
  }
  return { words: words.join(' '), cjk: [...new Set(cjk)] };
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One `SELECT rowid …` per CJK term, to INTERSECT: trigram MATCH for ≥ 3 characters, else LIKE. */
export function cjkConditions(terms: readonly string[]): { sql: string; params: unknown[] }[] {
  return terms.map((t) =>
    [...t].length >= 3
      ? { sql: 'SELECT rowid FROM trajectories_cjk WHERE trajectories_cjk MATCH ?', params: [`"${t}"`] }
      : { sql: "SELECT rowid FROM trajectories_cjk WHERE text LIKE ? ESCAPE '\\'", params: [`%${likeEscape(t)}%`] },
  );
}

/** Highlights of CJK terms in a text: [start, end) UTF-16 offsets of every occurrence. */
export function cjkHighlights(text: string, terms: readonly string[]): [number, number][] {
  const out: [number, number][] = [];
  for (const t of terms)
    for (let i = text.indexOf(t); i >= 0; i = text.indexOf(t, i + t.length)) out.push([i, i + t.length]);
  return out.sort((a, b) => a[0] - b[0]);
}
