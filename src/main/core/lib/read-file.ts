import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';

/** A file that cannot be read as input: the message names it and says why. */
export class FileReadError extends Error {}

/** What a path that is not a regular file is, for a message ("a FIFO", "a device"…). */
export const kindOf = (st: fs.Stats) =>
  st.isDirectory()
    ? 'a folder'
    : st.isFIFO()
      ? 'a FIFO'
      : st.isCharacterDevice() || st.isBlockDevice()
        ? 'a device'
        : st.isSocket()
          ? 'a socket'
          : 'not a regular file';

const CHUNK = 1 << 20;

/**
 * The bytes of a regular file, at most `maxBytes` of them. Hazards this guards against, all seen
 * with crafted inputs: a FIFO blocks open() and read() forever (opened O_NONBLOCK, then refused by
 * fstat), a device or a symlink to /dev/zero never ends (refused by fstat), and a size from stat
 * is not the size read (a file that grows, /proc files that say 0): the limit counts bytes read.
 */
export function readRegularFile(file: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new FileReadError(`${file}: no such file`);
    if (code === 'EISDIR') throw new FileReadError(`${file}: a folder, not a file`);
    throw new FileReadError(`${file}: cannot read it (${code ?? (err as Error).message})`);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new FileReadError(`${file}: ${kindOf(st)}, not a regular file; only files are read`);
    const tooBig = (n: number) => new FileReadError(`${file}: ${n} bytes is over the ${maxBytes}-byte limit`);
    if (st.size > maxBytes) throw tooBig(st.size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(st.size - total, 0) + 1));
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw tooBig(total);
      chunks.push(n === buf.length ? buf : buf.subarray(0, n));
    }
    return Buffer.concat(chunks, total);
  } finally {
    fs.closeSync(fd);
  }
}

/** 1-based line of the first byte sequence that is not UTF-8 (lines split at \n), or 0 when all of it is. */
export function firstBadUtf8Line(buf: Buffer): number {
  if (isUtf8(buf)) return 0;
  let start = 0;
  for (let line = 1; ; line++) {
    const nl = buf.indexOf(0x0a, start);
    const end = nl < 0 ? buf.length : nl;
    if (!isUtf8(buf.subarray(start, end))) return line;
    if (nl < 0) return 0;
    start = nl + 1;
  }
}

/** Decodes strict UTF-8, naming the first bad line: `file:LINE: not valid UTF-8`. A BOM is kept. */
export function decodeUtf8(buf: Buffer, source: string): string {
  const line = firstBadUtf8Line(buf);
  if (line) throw new FileReadError(`${source}:${line}: not valid UTF-8`);
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(buf);
}

/** A regular file's text, strict UTF-8, at most `maxBytes`; a leading BOM is dropped (YAML and JSON readers). */
export function readUtf8File(file: string, maxBytes: number): string {
  const text = decodeUtf8(readRegularFile(file, maxBytes), file);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Whether `file`, symlinks resolved, lies inside `root` (symlinks resolved too). Comparing path
 * text is not enough: `fixtures/x.json` may be a symlink to /etc/passwd or ~/.ssh/id_rsa. A file
 * that does not exist is left to the reader to report.
 */
export function resolvesInside(file: string, root: string): boolean {
  let real: string;
  try {
    real = fs.realpathSync(file);
  } catch {
    return true;
  }
  const realRoot = fs.realpathSync(root);
  return real === realRoot || real.startsWith(realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep);
}
