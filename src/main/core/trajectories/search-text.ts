import Database from 'better-sqlite3';
import type { Message } from '../../../shared/contract/entities/trajectory';
import { cjkHighlights } from './cjk-search';

type Loose = { messages?: readonly Partial<Message>[] };

/**
 * The text a trajectory is found by: user and assistant text, reasoning, each tool call's name and
 * raw arguments, and the text of tool results that are errors. Left out on purpose: the system
 * prompt (one policy repeated in every trajectory of a source) and successful tool results (bulky
 * JSON payloads that would triple the index and drown the conversation in matches).
 * Hazard: the FTS table is contentless — its rows cannot be re-read — so snippets are cut from
 * this same text rebuilt from the body (searchSnippets); change both together.
 */
export function indexForSearch(t: Loose): string {
  const parts: string[] = [];
  for (const m of t.messages ?? []) {
    if (m.role === 'user' || m.role === 'assistant') {
      if (m.content) parts.push(m.content);
      if (m.role === 'assistant' && m.reasoning) parts.push(m.reasoning);
      for (const c of m.tool_calls ?? []) parts.push(`${c.function.name} ${c.function.arguments}`);
    } else if (m.role === 'tool' && m.is_error && m.content) parts.push(m.content);
  }
  return parts.join('\n');
}

let scratch: Database.Database | undefined;

/**
 * Snippets for search hits, cut by FTS5 itself: the hits' texts go into a private in-memory FTS5
 * table (with content, same tokenizer) and snippet() runs the user's query there, so the marked
 * terms are exactly what the index matched (prefixes, phrases, diacritics folded). Answers per id
 * the snippet and the [start, end) UTF-16 offsets of its highlighted terms.
 */
export function searchSnippets(
  texts: { id: number; text: string }[],
  match: string | null,
  cjk: readonly string[] = [],
): Map<number, { snippet: string; highlights: [number, number][] }> {
  if (!match) return new Map(texts.map((t) => [t.id, cjkSnippet(t.text, cjk)]));
  if (!scratch) {
    scratch = new Database(':memory:');
    scratch.exec("CREATE VIRTUAL TABLE s USING fts5 (text, tokenize = 'unicode61 remove_diacritics 2')");
  }
  const db = scratch;
  const out = new Map<number, { snippet: string; highlights: [number, number][] }>();
  db.transaction(() => {
    db.exec('DELETE FROM s');
    const insert = db.prepare('INSERT INTO s (rowid, text) VALUES (?, ?)');
    for (const t of texts) insert.run(t.id, t.text);
    const rows = db
      .prepare("SELECT rowid AS id, snippet(s, 0, char(2), char(3), '…', 24) AS snip FROM s WHERE s MATCH ?")
      .all(match) as { id: number; snip: string }[];
    for (const r of rows) {
      const m = marks(r.snip);
      out.set(r.id, cjk.length ? { ...m, highlights: [...m.highlights, ...cjkHighlights(m.snippet, cjk)] } : m);
    }
    db.exec('DELETE FROM s');
  })();
  return out;
}

/** A snippet around the first CJK term's first occurrence (FTS5's snippet() knows only the word index's terms). */
function cjkSnippet(text: string, cjk: readonly string[]): { snippet: string; highlights: [number, number][] } {
  const at = Math.min(...cjk.map((t) => text.indexOf(t)).filter((i) => i >= 0));
  if (!Number.isFinite(at)) return { snippet: '', highlights: [] };
  const from = Math.max(0, at - 40);
  const snippet = `${from ? '…' : ''}${text.slice(from, at + 80)}${at + 80 < text.length ? '…' : ''}`;
  return { snippet, highlights: cjkHighlights(snippet, cjk) };
}

/** "a \x02b\x03 c" → "a b c" with [[2, 3]]. */
function marks(s: string): { snippet: string; highlights: [number, number][] } {
  let text = '';
  const highlights: [number, number][] = [];
  let open = -1;
  for (const ch of s) {
    if (ch === '\u0002') open = text.length;
    else if (ch === '\u0003') {
      if (open >= 0) highlights.push([open, text.length]);
      open = -1;
    } else text += ch;
  }
  return { snippet: text, highlights };
}
