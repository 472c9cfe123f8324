import fs from 'node:fs';
import { FileWindow } from './file-window';
import { isWs, scanElement, show } from './read-json';

/** The first byte at or after w.buf[i] that is not whitespace (undefined at the end), its index, the "\n" skipped. */
export function skipWs(w: FileWindow, i: number): { i: number; c: number | undefined; nl: number } {
  let nl = 0;
  for (;;) {
    if (i >= w.end) {
      if (w.eof) return { i, c: undefined, nl };
      i -= w.fill(i);
      continue;
    }
    const c = w.buf[i]!;
    if (!isWs(c)) return { i, c, nl };
    if (c === 10) nl++;
    i++;
  }
}

const CHUNK = 64 * 1024;

/**
 * The 1-based column (in code points, formats.md's character count) of file offset `at`: read back
 * to the start of its line. Only for a refusal's message, so reading back a long line is affordable.
 */
export function columnAt(fd: number, at: number): number {
  const buf = Buffer.allocUnsafe(CHUNK);
  let column = 1;
  for (let end = at; end > 0; ) {
    const start = Math.max(0, end - CHUNK);
    const n = fs.readSync(fd, buf, 0, end - start, start);
    let k = n - 1;
    for (; k >= 0 && buf[k] !== 10; k--) if ((buf[k]! & 0xc0) !== 0x80) column++;
    if (k >= 0) return column;
    // The line runs from the file's start: a byte-order mark there is not a character of it.
    if (start === 0 && n >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) column--;
    end = start;
  }
  return column;
}

/**
 * Why a file whose one JSON document (a τ-bench array, a τ² results object) ended at `endLine` and
 * is followed, at file offset `at`, by byte `c` instead of only whitespace: garbage, or a second
 * document. The reader's position cannot tell which records of such a file were meant, so none are.
 */
export function trailingMessage(fd: number, kind: 'array' | 'object', endLine: number, at: number, c: number) {
  const second = c === 91 || c === 123 ? ', a second JSON document?' : '';
  return (
    `column ${columnAt(fd, at)}: the JSON ${kind} ends on line ${endLine}, but the file goes on: found ${show(c)}` +
    `${second} (one file holds one JSON document; nothing of it was imported)`
  );
}

/**
 * What follows a file's JSON array, read before any of its records is: the line and message of
 * the first byte after the array's "]" that is not whitespace, or null when there is none. A
 * missing or cut-off array is null too: the array reader reports it (keeping the whole records
 * before a cut). One pass over the structure, holding at most a window of the file.
 */
export function afterArray(fd: number, size: number): { line: number; message: string } | null {
  const w = new FileWindow(fd, 0, size, 0);
  w.fill(0);
  const bom = w.buf[0] === 0xef && w.buf[1] === 0xbb && w.buf[2] === 0xbf;
  const lead = skipWs(w, bom ? 3 : 0);
  if (lead.c !== 91) return null;
  const el = scanElement(w, lead.i, 0);
  if (el.end === -1) return null;
  const endLine = 1 + lead.nl + el.nl;
  const rest = skipWs(w, el.end);
  if (rest.c === undefined) return null;
  return { line: endLine + rest.nl, message: trailingMessage(fd, 'array', endLine, w.at(rest.i), rest.c) };
}
