import fs from 'node:fs';

const CHUNK = 1 << 20;

/**
 * A sliding window over a byte range of a file, read with synchronous reads (job bodies are
 * synchronous). Bytes before `keep` may be dropped on the next fill; the window grows only while one
 * record needs it, up to the record limit plus a chunk, so memory stays bounded whatever the file.
 * Hazard: `buf` holds stale bytes past `end`; search only within [from, end).
 */
export class FileWindow {
  buf: Buffer = Buffer.allocUnsafe(CHUNK);
  /** File offset of buf[0]. */
  base: number;
  /** Bytes of buf that hold file data. */
  end = 0;
  eof = false;

  constructor(
    private readonly fd: number,
    offset: number,
    /** File offset where the range ends (exclusive). */
    private readonly limit: number,
    private readonly maxWindow: number,
  ) {
    this.base = offset;
  }

  /** File offset of index i. */
  at(i: number): number {
    return this.base + i;
  }

  /**
   * Drops bytes before `keep`, reads more after `end`; answers how far indices moved left (subtract it
   * from every index held). Sets eof when the range is exhausted.
   */
  fill(keep: number): number {
    const shift = keep;
    if (shift > 0) {
      this.buf.copyWithin(0, shift, this.end);
      this.end -= shift;
      this.base += shift;
    }
    if (this.end + CHUNK > this.buf.length) {
      const size = Math.min(Math.max(this.buf.length * 2, this.end + CHUNK), this.maxWindow + 2 * CHUNK);
      if (size > this.buf.length) {
        const next = Buffer.allocUnsafe(size);
        this.buf.copy(next, 0, 0, this.end);
        this.buf = next;
      }
    }
    const want = Math.min(this.buf.length - this.end, this.limit - (this.base + this.end));
    const n = want > 0 ? fs.readSync(this.fd, this.buf, this.end, want, this.base + this.end) : 0;
    this.end += n;
    if (n === 0) this.eof = true;
    return shift;
  }

  /** Forgets the window's bytes (after skipping an over-long record) and continues from `index`. */
  drop(index: number): void {
    this.base += index;
    this.end = 0;
    if (this.buf.length > 4 * CHUNK) this.buf = Buffer.allocUnsafe(CHUNK);
  }
}

/** The 0-based offset of the first byte that is not valid UTF-8 (only called once isUtf8 said there is one). */
export function firstInvalidUtf8(b: Buffer): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    const n = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
    if (n === 0 || i + n > b.length) return i;
    for (let k = 1; k < n; k++) if ((b[i + k]! & 0xc0) !== 0x80) return i;
    // Overlongs, surrogates and code points past U+10FFFF.
    const c1 = b[i + 1]!;
    if (
      (c === 0xe0 && c1 < 0xa0) ||
      (c === 0xed && c1 >= 0xa0) ||
      (c === 0xf0 && c1 < 0x90) ||
      (c === 0xf4 && c1 >= 0x90)
    )
      return i;
    i += n;
  }
  return b.length;
}

/** Counts "\n" in buf[from, to) with the native search. */
export function countNewlines(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = buf.indexOf(10, from); i !== -1 && i < to; i = buf.indexOf(10, i + 1)) n++;
  return n;
}

export const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
