import fs from 'node:fs';
import { isUtf8 } from 'node:buffer';
import type { FilePosition } from './import-files.repo';
import { firstInvalidUtf8, mb } from './file-window';
import { readJsonArray } from './read-json';
import { readJsonl, type ReadItem } from './read-jsonl';
import { readObjectMembers } from './read-object';
import type { Container } from './sniff';
import { afterArray } from './trailing';

/** A file's records from a position, or the file-level reason it cannot be read past it. */
type AtFilePosition<T> = T extends ReadItem ? Omit<T, 'next'> & { next: FilePosition } : never;
export type FileItem =
  | AtFilePosition<ReadItem>
  | { kind: 'header'; header: Record<string, unknown>; next: FilePosition };

/**
 * The items of one file by its container, from a saved position. A τ²-bench results file first
 * yields its header (every member but `simulations`), which the caller stores before the records
 * come: the position then carries the simulations' byte range, so a resume skips the header.
 * A file holding one JSON document (an array, a τ² object) with anything but whitespace after it
 * yields only that refusal: it is found before any record, so nothing of the file is stored (a
 * document cut off mid-way still keeps the whole records before the cut).
 */
export function* fileItems(
  fd: number,
  size: number,
  container: Container,
  pos: FilePosition,
  maxRecord: number,
): Generator<FileItem> {
  switch (container) {
    case 'jsonl':
      yield* readJsonl(fd, size, pos, maxRecord);
      return;
    case 'array': {
      // Trailing data is found before the first record, not after the last: by then batches are committed.
      const after = pos.record === 0 ? afterArray(fd, size) : null;
      if (after) return yield { kind: 'bad', ...after, record: null, next: { ...pos, offset: size }, stop: true };
      yield* readJsonArray(fd, { start: 0, end: size, line: 1 }, pos, maxRecord);
      return;
    }
    case 'whole':
      if (pos.record === 0) yield wholeFile(fd, size, maxRecord);
      return;
    case 'object': {
      let p = pos;
      if (!p.stream) {
        const scan = readObjectMembers(fd, size, 'simulations', maxRecord);
        const end = { ...p, offset: size, record: p.record };
        if (!scan.ok)
          return yield { kind: 'bad', line: scan.line, record: null, message: scan.message, next: end, stop: true };
        if (!scan.stream)
          return yield {
            kind: 'bad',
            line: 1,
            record: null,
            message: 'a JSON object without "simulations": not a τ²-bench results file',
            next: end,
            stop: true,
          };
        p = { offset: scan.stream.start, line: scan.stream.line, record: 0, stream: scan.stream };
        yield { kind: 'header', header: scan.header, next: p };
      }
      const stream = p.stream!;
      for (const item of readJsonArray(fd, stream, p, maxRecord))
        yield { ...item, next: { ...item.next, stream, ...(p.contextId ? { contextId: p.contextId } : {}) } };
      return;
    }
  }
}

/** A Claw-Eval trace: the whole file is one record. */
function wholeFile(fd: number, size: number, maxRecord: number): ReadItem {
  const next = { offset: size, line: 1, record: 1 };
  if (size > maxRecord)
    return {
      kind: 'bad',
      line: 1,
      record: 0,
      message: `the trace is ${mb(size)}, over the ${mb(maxRecord)} limit of one record`,
      next,
    };
  const bytes = Buffer.allocUnsafeSlow(size); // not the shared pool: a parse helper transfers it
  let n = 0;
  while (n < size) {
    const got = fs.readSync(fd, bytes, n, size - n, n);
    if (!got) break;
    n += got;
  }
  const b = bytes.subarray(0, n);
  if (!isUtf8(b)) {
    const at = firstInvalidUtf8(b);
    let line = 1;
    for (let i = b.indexOf(10); i !== -1 && i < at; i = b.indexOf(10, i + 1)) line++;
    return { kind: 'bad', line, record: 0, message: `invalid UTF-8 at byte ${at + 1} of the file`, next };
  }
  return { kind: 'record', bytes: b, line: 1, record: 0, next };
}
