/**
 * The fixture web search's tokeniser (reference/claw-eval.md §6.17). Its token set decides which
 * results a query finds and their order, so it follows Python's str semantics, not JS's.
 */

/** Python str.split() separators (str.isspace), which differ from JS \s (no U+FEFF; adds U+001C–U+001F, U+0085). */
const PY_WHITESPACE =
  /[\t\n\u000b\u000c\r\u001c-\u001f \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

/** The 26 characters stripped from both ends of a word; curly quotes are deliberately absent. */
const PUNCT = new Set([...',.!?;:"\'()[]{}', ...'。，！？；：（）【】《》']);

/** U+4E00–U+9FFF only: CJK Extension A and the compatibility ideographs are not "Chinese" here. */
const isCjk = (ch: string) => ch >= '\u4e00' && ch <= '\u9fff';

function strip(word: string): string {
  let a = 0;
  let b = word.length;
  while (a < b && PUNCT.has(word[a]!)) a++;
  while (b > a && PUNCT.has(word[b - 1]!)) b--;
  return word.slice(a, b);
}

export function tokenize(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().split(PY_WHITESPACE)) {
    const s = strip(w);
    if (s) out.add(s);
  }
  // Iterate code points: a surrogate pair is one Python character (never CJK here, but it must not pair up).
  const chars = [...text];
  chars.forEach((ch, i) => {
    if (!isCjk(ch)) return;
    out.add(ch);
    const next = chars[i + 1];
    if (next !== undefined && isCjk(next)) out.add(ch + next);
  });
  return out;
}

/** Search score: how many distinct tokens the query and the item's keywords share. */
export function overlap(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const t of a) if (b.has(t)) n++;
  return n;
}
