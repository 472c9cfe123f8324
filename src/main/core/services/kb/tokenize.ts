/**
 * The kb search tokeniser (reference/claw-eval.md §6.10), in Python string semantics: code
 * points, not UTF-16 units, and Python's own whitespace set (str.split / str.strip), which is
 * not JavaScript's `\s` (Python adds U+001C–U+001F and U+0085; JS adds U+FEFF).
 */
const PY_SPACE = /^[\t\n\u000b\f\r\u001c-\u001f \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/u;
const isPySpace = (ch: string) => PY_SPACE.test(ch);

/** Python str.split() with no argument. */
function pySplit(cps: string[]): string[] {
  const words: string[] = [];
  let cur = '';
  for (const ch of cps) {
    if (isPySpace(ch)) {
      if (cur) words.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) words.push(cur);
  return words;
}

/**
 * Whole words (punctuation kept), every character pair that is not all whitespace ("e ", " t"
 * count), and every CJK unified ideograph. Any shared pair is a match, hence the permissiveness.
 */
export function kbTokens(text: string): Set<string> {
  const cps = Array.from(text.toLowerCase());
  const tokens = new Set(pySplit(cps));
  for (let i = 0; i + 1 < cps.length; i++) {
    const a = cps[i]!;
    const b = cps[i + 1]!;
    if (!(isPySpace(a) && isPySpace(b))) tokens.add(a + b);
  }
  for (const ch of cps) if (ch >= '\u4e00' && ch <= '\u9fff') tokens.add(ch);
  return tokens;
}

export const intersects = (a: Set<string>, b: Set<string>): boolean => {
  for (const t of a) if (b.has(t)) return true;
  return false;
};

/** The first 150 code points of the content and "..." — appended even when nothing was cut. */
export const snippet = (content: string): string => `${Array.from(content).slice(0, 150).join('')}...`;
