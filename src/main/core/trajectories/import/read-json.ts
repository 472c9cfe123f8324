import { FileWindow, mb } from './file-window';
import { recordBytes, type Position, type ReadItem } from './read-jsonl';

/** Where a JSON value's scan stands; kept across window refills. */
type Scan = { depth: number; inStr: boolean; esc: boolean; prim: boolean; nl: number };

/**
 * Scans one JSON value from buf[i] (its first byte or where the last call stopped); answers the
 * index just past it, or -1 when buf[end] was reached first. Counts "\n" on the way. Only the
 * structure is followed (strings, escapes, nesting); JSON.parse judges the element afterwards.
 */
function scanValue(buf: Buffer, i: number, end: number, s: Scan): number {
  for (; i < end; i++) {
    const c = buf[i];
    if (s.inStr) {
      if (s.esc) s.esc = false;
      else if (c === 92) s.esc = true;
      else if (c === 34) {
        s.inStr = false;
        if (s.depth === 0) return i + 1;
      } else if (c === 10) s.nl++;
    } else if (s.prim) {
      if (c === 44 || c === 93 || c === 125 || c === 32 || c === 10 || c === 13 || c === 9) return i;
    } else if (c === 34) s.inStr = true;
    else if (c === 123 || c === 91) s.depth++;
    else if (c === 125 || c === 93) {
      if (--s.depth <= 0) return i + 1;
    } else if (c === 10) s.nl++;
  }
  return -1;
}

/**
 * One JSON value starting at w.buf[i], read across refills: its [start, end) in the window (end -1
 * when the file ends first). A value longer than `maxRecord` is not kept: `skipped` counts the
 * bytes dropped (start is then 0 and the window holds only the value's tail).
 */
export function scanElement(
  w: FileWindow,
  i: number,
  maxRecord: number,
): { start: number; end: number; skipped: number; nl: number; prim: boolean } {
  const c = w.buf[i];
  const s: Scan = { depth: 0, inStr: false, esc: false, prim: c !== 123 && c !== 91 && c !== 34, nl: 0 };
  let start = i;
  let skipped = 0;
  let j = scanValue(w.buf, i, w.end, s);
  while (j === -1 && !w.eof) {
    const scanned = w.end;
    if (scanned - start > maxRecord) {
      skipped += scanned - start;
      w.drop(scanned);
      start = 0;
      w.fill(0);
      j = scanValue(w.buf, 0, w.end, s);
      continue;
    }
    const shift = w.fill(start);
    start = 0;
    j = scanValue(w.buf, scanned - shift, w.end, s);
  }
  return { start, end: j, skipped, nl: s.nl, prim: s.prim };
}

export const isWs = (c: number | undefined) => c === 32 || c === 10 || c === 13 || c === 9;
export const show = (c: number | undefined) =>
  c === undefined ? 'the end of the file' : JSON.stringify(String.fromCharCode(c));

/**
 * The elements of a JSON array in buf range [range.start, range.end) — a whole file (τ-bench) or
 * a τ²-bench results file's `simulations` — one record each, never the whole array in memory. From
 * a saved position with record > 0 it goes on after that element. An element over `maxRecord` is
 * reported and skipped without being held; a break in the array's own structure stops the file
 * (what follows cannot be told apart), with the records before it kept.
 */
export function* readJsonArray(
  fd: number,
  range: { start: number; end: number; line: number },
  from: Position,
  maxRecord: number,
): Generator<ReadItem> {
  const resumed = from.record > 0;
  const w = new FileWindow(fd, resumed ? from.offset : range.start, range.end, maxRecord);
  let line = resumed ? from.line : range.line;
  let record = resumed ? from.record : 0;
  let state: 'open' | 'first' | 'after' | 'value' = resumed ? 'after' : 'open';
  let i = 0;
  w.fill(0);
  if (!resumed && range.start === 0 && w.buf[0] === 0xef && w.buf[1] === 0xbb && w.buf[2] === 0xbf) i = 3;
  const here = () => ({ offset: w.at(i), line, record });
  for (;;) {
    if (i >= w.end) {
      if (w.eof) break;
      i -= w.fill(i);
      continue;
    }
    const c = w.buf[i];
    if (isWs(c)) {
      if (c === 10) line++;
      i++;
      continue;
    }
    if (state === 'open') {
      if (c !== 91) return yield stop(line, here(), `not a JSON array: expected "[" but found ${show(c)}`);
      state = 'first';
      i++;
      continue;
    }
    if (c === 93) {
      if (state !== 'value') return;
      return yield stop(line, here(), `a "," before the closing "]" (after element ${record})`);
    }
    if (state === 'after') {
      if (c !== 44) return yield stop(line, here(), `expected "," or "]" after element ${record} but found ${show(c)}`);
      state = 'value';
      i++;
      continue;
    }
    // An element starts at i.
    const startLine = line;
    const el = scanElement(w, i, maxRecord);
    line += el.nl;
    if (el.end === el.start && el.prim) return yield stop(line, here(), `expected a record but found ${show(c)}`);
    if (el.end === -1) {
      i = w.end;
      return yield stop(startLine, here(), `element ${record + 1} is cut off at the end of the file (truncated?)`);
    }
    const j = el.end;
    const start = el.start;
    const skipped = el.skipped;
    i = j;
    const next = { offset: w.at(i), line, record: record + 1 };
    if (skipped > 0) {
      const length = skipped + (j - start);
      const message =
        `element ${record + 1} is ${mb(length)} long, ` + `over the ${mb(maxRecord)} limit of one record; skipped`;
      yield { kind: 'bad', line: startLine, record, message, next };
    } else {
      const bytes = recordBytes(w.buf, start, j);
      yield typeof bytes === 'string'
        ? { kind: 'bad', line: startLine, record, message: bytes, next }
        : { kind: 'record', bytes, line: startLine, record, next };
    }
    record++;
    state = 'after';
  }
  // The range ended without its closing "]".
  yield stop(
    line,
    here(),
    state === 'open' ? 'the file holds no JSON array' : 'the array is not closed: the file looks truncated',
  );
}

export function stop(line: number, next: Position, message: string): ReadItem {
  return { kind: 'bad', line, record: null, message, next, stop: true };
}
