import { headerTooDeep } from '../formats/record-json';
import { FileWindow, mb } from './file-window';
import { isWs, scanElement, show } from './read-json';
import { skipWs, trailingMessage } from './trailing';

export type ObjectScan =
  | {
      ok: true;
      /** Every top-level member but the streamed one, parsed. */
      header: Record<string, unknown>;
      /** The streamed member's value: its byte range and the line it starts on; null when absent. */
      stream: { start: number; end: number; line: number } | null;
    }
  | { ok: false; line: number; message: string };

/**
 * Reads a file holding one JSON object member by member (a τ²-bench results file): every member
 * is parsed except `streamKey`, whose value (an array of any size) is only located, to be read
 * element by element afterwards. Members other than the streamed one are limited to `maxRecord`.
 * Whatever follows the object but whitespace fails the scan, so such a file has no records read.
 */
export function readObjectMembers(fd: number, size: number, streamKey: string, maxRecord: number): ObjectScan {
  const w = new FileWindow(fd, 0, size, maxRecord);
  const header: Record<string, unknown> = {};
  let stream: { start: number; end: number; line: number } | null = null;
  let line = 1;
  let i = 0;
  w.fill(0);
  if (w.buf[0] === 0xef && w.buf[1] === 0xbb && w.buf[2] === 0xbf) i = 3;
  const fail = (message: string): ObjectScan => ({ ok: false, line, message });
  /** The next byte that is not whitespace (or undefined at the end of the file). */
  const peek = (): number | undefined => {
    for (;;) {
      if (i >= w.end) {
        if (w.eof) return undefined;
        i -= w.fill(i);
        continue;
      }
      const c = w.buf[i]!;
      if (!isWs(c)) return c;
      if (c === 10) line++;
      i++;
    }
  };
  if (peek() !== 123) return fail(`not a JSON object: expected "{" but found ${show(peek())}`);
  i++;
  let first = true;
  for (;;) {
    let c = peek();
    if (c === 125) break;
    if (!first) {
      if (c !== 44) return fail(`expected "," or "}" between members but found ${show(c)}`);
      i++;
      c = peek();
    }
    first = false;
    if (c !== 34) return fail(`expected a member name but found ${show(c)}`);
    const k = scanElement(w, i, 4096);
    if (k.end === -1 || k.skipped) return fail('a member name is cut off or too long');
    const key = JSON.parse(w.buf.toString('utf8', k.start, k.end)) as string;
    i = k.end;
    if (peek() !== 58) return fail(`expected ":" after "${key}" but found ${show(peek())}`);
    i++;
    c = peek();
    if (c === undefined) return fail(`the value of "${key}" is missing: the file looks truncated`);
    const startLine = line;
    const startOffset = w.at(i);
    const streamed = key === streamKey;
    const v = scanElement(w, i, streamed ? 0 : maxRecord);
    line += v.nl;
    if (v.end === -1) {
      // A cut-off stream is read as far as it goes: its reader keeps the whole records and reports the cut one.
      if (streamed) return { ok: true, header, stream: { start: startOffset, end: size, line: startLine } };
      return fail(`the value of "${key}" (from line ${startLine}) is cut off: the file looks truncated`);
    }
    if (streamed) stream = { start: startOffset, end: w.at(v.end), line: startLine };
    else if (v.skipped)
      return fail(`the value of "${key}" is ${mb(v.skipped + v.end)}, over the ${mb(maxRecord)} limit`);
    else {
      const text = w.buf.toString('utf8', v.start, v.end);
      try {
        header[key] = JSON.parse(text);
      } catch (err) {
        return fail(`the value of "${key}" (from line ${startLine}) is not valid JSON: ${(err as Error).message}`);
      }
      // The header is stored (the run's context) and read with every simulation: the records' limit holds for it.
      const deep = headerTooDeep(key, text, header[key]);
      if (deep) return { ok: false, line: startLine + deep.line - 1, message: deep.message };
    }
    i = v.end;
  }
  // Only whitespace may follow the object: garbage or a second document refuses the file before any record is read.
  const rest = skipWs(w, i + 1);
  if (rest.c !== undefined)
    return { ok: false, line: line + rest.nl, message: trailingMessage(fd, 'object', line, w.at(rest.i), rest.c) };
  return { ok: true, header, stream };
}
