import { FileWindow } from './file-window';
import { scanElement } from './read-json';
import { skipWs } from './trailing';

/** What the top level of one JSON object says about its format: member names, not values. */
export type ObjectKeys = {
  /** The first few member names (for a refusal's message). */
  first: string[];
  /** The member names among those asked for. */
  seen: Set<string>;
  /** The value of a top-level "type" member when it is a short string (Claw-Eval's event kind). */
  type: string | null;
  /** The object closed properly (else its structure broke or the file ended inside it). */
  complete: boolean;
};

const MAX_NAME = 4096;
const SHOWN = 8;

/** A short JSON string at w.buf[i] parsed, or null when it is long, cut off or not a string. */
function shortString(w: FileWindow, i: number): { value: string | null; end: number } {
  const s = scanElement(w, i, MAX_NAME);
  if (s.end === -1) return { value: null, end: -1 };
  if (s.skipped || w.buf[s.start] !== 34) return { value: null, end: s.end };
  try {
    return { value: JSON.parse(w.buf.toString('utf8', s.start, s.end)) as string, end: s.end };
  } catch {
    return { value: null, end: s.end };
  }
}

/**
 * The member names of the JSON object starting at file offset `offset`, read by structure: each
 * value is skipped without being kept (scanElement with no record limit drops what it passed), so
 * an object of any size, a τ² header of hundreds of MB included, is read in a window of a few MB.
 * Stops at the first name in `decisive` (nothing after it can change the verdict), at the object's
 * end, or where its structure breaks (the file's reader reports that later, with its line).
 */
export function objectKeys(
  fd: number,
  size: number,
  offset: number,
  wanted: ReadonlySet<string>,
  decisive: ReadonlySet<string>,
): ObjectKeys {
  const out: ObjectKeys = { first: [], seen: new Set(), type: null, complete: false };
  const w = new FileWindow(fd, offset, size, 0);
  w.fill(0);
  let p = skipWs(w, 0);
  if (p.c !== 123) return out;
  p = skipWs(w, p.i + 1);
  if (p.c === 125) return { ...out, complete: true };
  for (;;) {
    if (p.c !== 34) return out;
    const name = shortString(w, p.i);
    if (name.end === -1) return out;
    p = skipWs(w, name.end);
    if (p.c !== 58) return out;
    p = skipWs(w, p.i + 1);
    if (p.c === undefined) return out;
    const key = name.value;
    if (key !== null) {
      if (out.first.length < SHOWN) out.first.push(key);
      if (wanted.has(key)) out.seen.add(key);
      if (decisive.has(key)) return out;
    }
    let end: number;
    if (key === 'type' && p.c === 34) {
      const v = shortString(w, p.i);
      out.type = v.value;
      end = v.end;
    } else end = scanElement(w, p.i, 0).end;
    if (end === -1) return out;
    p = skipWs(w, end);
    if (p.c === 125) return { ...out, complete: true };
    if (p.c !== 44) return out;
    p = skipWs(w, p.i + 1);
  }
}

/**
 * File offsets where the elements of the top-level JSON array at `offset` start, up to `max` of
 * them; each element is skipped by structure, never kept (a first τ-bench record of many MB costs
 * a window). Stops early where the array's structure breaks.
 */
export function arrayElementOffsets(fd: number, size: number, offset: number, max: number): number[] {
  const w = new FileWindow(fd, offset, size, 0);
  w.fill(0);
  const out: number[] = [];
  let p = skipWs(w, 0);
  if (p.c !== 91) return out;
  p = skipWs(w, p.i + 1);
  while (p.c !== undefined && p.c !== 93 && out.length < max) {
    out.push(w.at(p.i));
    if (out.length === max) break;
    const end = scanElement(w, p.i, 0).end;
    if (end === -1) break;
    p = skipWs(w, end);
    if (p.c !== 44) break;
    p = skipWs(w, p.i + 1);
  }
  return out;
}

/**
 * File offsets of the starts of the lines after the one at `offset`, up to `max`: a JSON Lines
 * file's next records. Found with the native byte search, a window at a time, so a line of any
 * length costs a window.
 */
export function nextLineOffsets(fd: number, size: number, offset: number, max: number): number[] {
  const w = new FileWindow(fd, offset, size, 0);
  const out: number[] = [];
  w.fill(0);
  let i = 0;
  while (out.length < max) {
    const nl = w.buf.indexOf(10, i);
    if (nl !== -1 && nl < w.end) {
      if (w.at(nl + 1) >= size) break;
      out.push(w.at(nl + 1));
      i = nl + 1;
      continue;
    }
    if (w.eof) break;
    i = w.end;
    i -= w.fill(i);
  }
  return out;
}
