/**
 * SQLite's order of values in JavaScript, for merging rows SQLite read in several index ranges: NULL, then
 * numbers (INTEGER and REAL by value), then text in BINARY collation (its UTF-8 bytes), then blobs.
 * JavaScript's `<` orders strings by UTF-16 code units, which puts U+E000–U+FFFF after the surrogate pairs of
 * higher code points; UTF-8 byte order is code point order, so that one range is moved before comparing.
 */
export function compareSqlValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1) return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  if (ra === 2) return compareText(a as string, b as string);
  if (ra === 3) return Buffer.compare(a as Buffer, b as Buffer);
  return 0;
}

const rank = (v: unknown) =>
  v === null || v === undefined
    ? 0
    : typeof v === 'number' || typeof v === 'bigint'
      ? 1
      : typeof v === 'string'
        ? 2
        : 3;

function compareText(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointOrder(x) - codePointOrder(y);
  }
  return a.length - b.length;
}

/** A UTF-16 code unit's place in code point order: surrogates (U+10000 and up) after U+E000–U+FFFF. */
const codePointOrder = (u: number) => (u >= 0xd800 && u <= 0xdfff ? u + 0x2000 : u >= 0xe000 ? u - 0x800 : u);

/** A binary min-heap under `less` (negative: a before b). */
export class MinHeap<T> {
  private constructor(
    private readonly items: T[],
    private readonly cmp: (a: T, b: T) => number,
  ) {}

  /** Items already in `cmp` order form a valid heap as they are. */
  static fromSorted<T>(items: T[], cmp: (a: T, b: T) => number): MinHeap<T> {
    return new MinHeap(items, cmp);
  }

  get size(): number {
    return this.items.length;
  }

  push(x: T): void {
    const h = this.items;
    h.push(x);
    let i = h.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (this.cmp(h[i]!, h[up]!) >= 0) break;
      [h[i], h[up]] = [h[up]!, h[i]!];
      i = up;
    }
  }

  pop(): T | undefined {
    const h = this.items;
    const top = h[0];
    const last = h.pop();
    if (h.length === 0 || last === undefined) return top;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.cmp(h[l]!, h[m]!) < 0) m = l;
      if (r < h.length && this.cmp(h[r]!, h[m]!) < 0) m = r;
      if (m === i) return top;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}
