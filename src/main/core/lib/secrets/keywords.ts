/**
 * Which of a fixed set of keywords occur in a text, case-insensitively, overlapping ones included:
 * gitleaks' prefilter (it uses Aho-Corasick too). A RegExp alternation of the 244 keywords ran at
 * ~55 MB/s here (nearly every position starts some keyword); this automaton, one table lookup per
 * character, at several hundred.
 */

/** Characters above this go to the root: no keyword holds one (checked when built). */
const ALPHABET = 128;

export type KeywordMatcher = { words: readonly string[]; find(text: string): Set<number> };

/** A matcher for lower-case ASCII keywords; find() answers the indices (in `words`) of those present. */
export function keywordMatcher(words: readonly string[]): KeywordMatcher {
  for (const w of words)
    if (!w || w !== w.toLowerCase() || [...w].some((c) => c.charCodeAt(0) >= ALPHABET))
      throw new Error(`keyword "${w}" is not lower-case ASCII`);
  // The trie, then its failure links breadth-first, folded into a full transition table (a DFA).
  const goto: number[][] = [new Array(ALPHABET).fill(-1)];
  const out: number[][] = [[]];
  words.forEach((w, index) => {
    let s = 0;
    for (const ch of w) {
      const c = ch.charCodeAt(0);
      if (goto[s]![c] === -1) {
        goto[s]![c] = goto.length;
        goto.push(new Array(ALPHABET).fill(-1));
        out.push([]);
      }
      s = goto[s]![c]!;
    }
    out[s]!.push(index);
  });
  const fail = new Array<number>(goto.length).fill(0);
  const queue: number[] = [];
  for (let c = 0; c < ALPHABET; c++) {
    const s = goto[0]![c]!;
    if (s === -1) goto[0]![c] = 0;
    else queue.push(s);
  }
  while (queue.length) {
    const r = queue.shift()!;
    for (let c = 0; c < ALPHABET; c++) {
      const s = goto[r]![c]!;
      if (s === -1) {
        goto[r]![c] = goto[fail[r]!]![c]!;
        continue;
      }
      queue.push(s);
      fail[s] = goto[fail[r]!]![c]!;
      out[s]!.push(...out[fail[s]!]!);
    }
  }
  const delta = new Int32Array(goto.length * ALPHABET);
  goto.forEach((row, s) => delta.set(row, s * ALPHABET));
  const hits = out.map((o) => (o.length ? o : null));
  return {
    words,
    find(text: string): Set<number> {
      const found = new Set<number>();
      let s = 0;
      for (let i = 0; i < text.length; i++) {
        let c = text.charCodeAt(i);
        if (c >= 65 && c <= 90) c += 32;
        s = c < ALPHABET ? delta[s * ALPHABET + c]! : 0;
        const h = hits[s];
        if (h) for (const k of h) found.add(k);
      }
      return found;
    },
  };
}
