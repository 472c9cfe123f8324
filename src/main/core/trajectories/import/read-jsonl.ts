import { isUtf8 } from 'node:buffer';
import { FileWindow, firstInvalidUtf8, mb } from './file-window';

/** Where a file's reading goes on: the next byte, its 1-based line, the next record's 0-based index. */
export type Position = { offset: number; line: number; record: number };

export type ReadItem =
  | { kind: 'record'; bytes: Buffer; line: number; record: number; next: Position }
  | {
      kind: 'bad';
      line: number;
      record: number | null;
      message: string;
      next: Position;
      /** The rest of the file cannot be read (a broken JSON structure). */
      stop?: boolean;
    };

/**
 * A record's bytes, copied out of the window into memory of its own (never Node's shared pool, so
 * a parse helper can transfer it to the writer thread without a copy), or why they are not text.
 */
export function recordBytes(buf: Buffer, from: number, to: number): Buffer | string {
  const view = buf.subarray(from, to);
  if (!isUtf8(view)) return `invalid UTF-8 at byte ${firstInvalidUtf8(view) + 1} of the record`;
  const own = Buffer.allocUnsafeSlow(view.length);
  view.copy(own);
  return own;
}

/**
 * JSON Lines, one record per non-blank line (a trailing "\r" is dropped, as is a byte-order mark
 * at the start of the file). A line longer than `maxRecord` is reported and skipped without being
 * held in memory; a last line without "\n" is read like the others (JSON.parse tells whether it
 * was cut off).
 */
export function* readJsonl(fd: number, size: number, from: Position, maxRecord: number): Generator<ReadItem> {
  const w = new FileWindow(fd, from.offset, size, maxRecord);
  let { line, record } = from;
  let start = 0;
  let scan = 0;
  w.fill(0);
  if (from.offset === 0 && w.end >= 3 && w.buf[0] === 0xef && w.buf[1] === 0xbb && w.buf[2] === 0xbf) start = scan = 3;
  for (;;) {
    let nl = w.buf.indexOf(10, scan);
    if (nl >= w.end) nl = -1;
    if (nl === -1 && !w.eof) {
      if (w.end - start > maxRecord) {
        yield* skipLong(w, start, line, record, maxRecord);
        line++;
        record++;
        start = scan = 0;
        continue;
      }
      const searched = w.end;
      scan = searched - w.fill(start);
      start = 0;
      continue;
    }
    const stop = nl === -1 ? w.end : nl;
    if (nl === -1 && start >= stop) return;
    const lineEnd = stop > start && w.buf[stop - 1] === 13 ? stop - 1 : stop;
    const next = { offset: w.at(nl === -1 ? stop : nl + 1), line: line + 1, record };
    if (!blank(w.buf, start, lineEnd)) {
      next.record = record + 1;
      const bytes = recordBytes(w.buf, start, lineEnd);
      yield typeof bytes === 'string'
        ? { kind: 'bad', line, record, message: bytes, next }
        : { kind: 'record', bytes, line, record, next };
      record++;
    }
    line++;
    if (nl === -1) return;
    start = scan = nl + 1;
  }
}

function blank(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = buf[i];
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

/** Reads past an over-long line to its end, keeping only the count of its bytes. */
function* skipLong(w: FileWindow, start: number, line: number, record: number, maxRecord: number): Generator<ReadItem> {
  let length = w.end - start;
  w.drop(w.end);
  for (;;) {
    w.fill(0);
    let nl = w.buf.indexOf(10);
    if (nl >= w.end) nl = -1;
    if (nl !== -1 || w.eof) {
      const upTo = nl === -1 ? w.end : nl;
      length += upTo;
      const next = { offset: w.at(nl === -1 ? upTo : nl + 1), line: line + 1, record: record + 1 };
      yield {
        kind: 'bad',
        line,
        record,
        message: `the line is ${mb(length)} long, over the ${mb(maxRecord)} limit of one record; skipped`,
        next,
      };
      w.drop(nl === -1 ? upTo : nl + 1);
      return;
    }
    length += w.end;
    w.drop(w.end);
  }
}
