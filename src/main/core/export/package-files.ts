import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../lib/errors';
import { dumpsCompact, PyFloat, type PyValue } from '../services/pyjson';

/** Who wrote an export (every manifest names it). */
export const TOOL_NAME = 'coworkenv-studio';
export const TOOL_VERSION = '0.1.0';

export const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** One file of an export, as its manifest lists it. */
export type FileEntry = { path: string; bytes: number; sha256: string; records?: number };

/** Plain data (PyFloat allowed) → JSON without undefined members: what JSONL lines and manifests hold. */
function defined(v: unknown): PyValue {
  if (v === undefined) return null;
  if ((typeof v === 'number' && !Number.isFinite(v)) || (v instanceof PyFloat && !Number.isFinite(v.value)))
    throw new Error(`a value to export is not a finite number (${String(v instanceof PyFloat ? v.value : v)})`);
  if (v === null || typeof v !== 'object' || v instanceof PyFloat) return v as PyValue;
  if (Array.isArray(v)) return v.map(defined);
  const o: Record<string, PyValue> = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) o[k] = defined(x);
  return o;
}

/**
 * Compact JSON, raw UTF-8 (formats.md's JSONL convention), floats held as PyFloat keep their
 * decimal point. Non-finite numbers have no JSON form: refused rather than written as NaN.
 */
export function jsonText(v: unknown): string {
  return dumpsCompact(defined(v));
}

/** Writes files under a folder, recording each one's size and sha256 for the manifest. */
export class FolderWriter {
  readonly files: FileEntry[] = [];
  constructor(readonly dir: string) {}

  write(rel: string, content: string | Uint8Array, records?: number): FileEntry {
    const norm = rel.replace(/\\/g, '/');
    if (path.isAbsolute(norm) || norm.split('/').some((p) => p === '..' || p === ''))
      throw new Error(`refusing to write ${rel}: not a plain relative path inside the export folder`);
    const file = path.join(this.dir, norm);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    fs.writeFileSync(file, bytes, { flag: 'wx' });
    const entry: FileEntry = { path: norm, bytes: bytes.byteLength, sha256: sha256(bytes) };
    if (records !== undefined) entry.records = records;
    this.files.push(entry);
    return entry;
  }

  /** One compact JSON object per line, each ending in "\n"; answers each line's sha256. */
  writeJsonl(rel: string, rows: readonly unknown[]): { entry: FileEntry; lineHashes: string[] } {
    const lines = rows.map(jsonText);
    const entry = this.write(rel, lines.map((l) => `${l}\n`).join(''), rows.length);
    return { entry, lineHashes: lines.map(sha256) };
  }
}

const why = (err: unknown) => {
  const e = err as NodeJS.ErrnoException;
  return e.code === 'EACCES' || e.code === 'EPERM'
    ? 'permission denied'
    : e.code === 'EROFS'
      ? 'read-only file system'
      : e.code === 'ENOSPC'
        ? 'no space left on the device'
        : e.code === 'ENOTDIR' || e.code === 'EEXIST'
          ? 'a part of the path is a file, not a folder'
          : e.message;
};

/**
 * Makes `outDir` all at once: everything is written into a temporary sibling folder, which is
 * renamed to `outDir` at the end, so a reader never sees a half-written export and a failure
 * leaves nothing behind. An existing non-empty folder is refused unless `overwrite` (then it is
 * replaced only once the new one is complete).
 */
export async function writeFolderAtomically<T>(
  outDir: string,
  overwrite: boolean,
  fill: (w: FolderWriter) => T | Promise<T>,
): Promise<T> {
  const target = path.resolve(outDir);
  let existing: fs.Stats | undefined;
  try {
    existing = fs.statSync(target);
  } catch {
    existing = undefined;
  }
  if (existing && !existing.isDirectory()) throw new AppError('CONFLICT', `${target} exists and is not a folder`);
  const nonEmpty = existing ? fs.readdirSync(target).length > 0 : false;
  if (nonEmpty && !overwrite)
    throw new AppError('CONFLICT', `${target} already exists and is not empty; ask to overwrite it to replace it`);
  const parent = path.dirname(target);
  const tag = randomBytes(6).toString('hex');
  const temp = path.join(parent, `.${path.basename(target)}.tmp-${tag}`);
  try {
    fs.mkdirSync(parent, { recursive: true });
    fs.mkdirSync(temp);
  } catch (err) {
    throw new AppError('BAD_REQUEST', `cannot write the export next to ${target}: ${why(err)}`);
  }
  let result: T;
  try {
    result = await fill(new FolderWriter(temp));
  } catch (err) {
    fs.rmSync(temp, { recursive: true, force: true });
    if (err instanceof AppError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (e.code) throw new AppError('BAD_REQUEST', `writing the export failed: ${why(err)}`);
    throw err;
  }
  const old = path.join(parent, `.${path.basename(target)}.old-${tag}`);
  try {
    if (existing) fs.renameSync(target, old);
    fs.renameSync(temp, target);
  } catch (err) {
    if (existing && !fs.existsSync(target) && fs.existsSync(old)) fs.renameSync(old, target);
    fs.rmSync(temp, { recursive: true, force: true });
    throw new AppError('BAD_REQUEST', `cannot put the export in place at ${target}: ${why(err)}`);
  }
  fs.rmSync(old, { recursive: true, force: true });
  return result;
}
