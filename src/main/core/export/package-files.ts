import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../lib/errors';
import { dumpsCompact, PyFloat, type PyValue } from '../py/pyjson';
import { refuseReplacing } from './export-target';
import { cleanLeftovers, tempSibling, tempTag } from './leftovers';

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

const existsAt = (p: string): fs.Stats | undefined => {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
};

/**
 * Makes `outDir` all at once: everything is written into a temporary sibling folder, which is
 * renamed to `outDir` at the end, so a reader never sees a half-written export and a failure
 * leaves nothing behind. An existing non-empty folder is refused unless `overwrite`, and then
 * replaced (once the new one is complete) only if it is a previous export of this app away from
 * the open workspace (`opts.workspacePath`; export-target.ts, asked at the start and just before
 * the swap). Leftovers of killed exports beside it are cleaned first (leftovers.ts).
 */
export async function writeFolderAtomically<T>(
  outDir: string,
  overwrite: boolean,
  fill: (w: FolderWriter) => T | Promise<T>,
  opts: { workspacePath?: string } = {},
): Promise<T> {
  const target = path.resolve(outDir);
  const parent = path.dirname(target);
  // Before looking at the target: a previous export moved aside by a killed process comes back.
  cleanLeftovers(parent, opts.workspacePath);
  const existing = existsAt(target);
  if (existing && !overwrite) {
    if (existing.isFile()) throw new AppError('CONFLICT', `${target} exists and is not a folder`);
    if (existing.isDirectory() && fs.readdirSync(target).length > 0)
      throw new AppError('CONFLICT', `${target} already exists and is not empty; ask to overwrite it to replace it`);
  }
  if (existing) refuseReplacing(target, opts.workspacePath);
  const tag = tempTag();
  const temp = tempSibling(target, 'partial', tag);
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
  const old = tempSibling(target, 'replaced', tag);
  let aside = false;
  try {
    // Asked again: the folder may have appeared, or someone put files in it, while the export was written.
    const now = existsAt(target);
    if (now && !overwrite && !(now.isDirectory() && fs.readdirSync(target).length === 0))
      throw new AppError('CONFLICT', `${target} appeared while exporting; it is left as it is`);
    if (now) {
      refuseReplacing(target, opts.workspacePath);
      fs.renameSync(target, old);
      aside = true;
    }
    fs.renameSync(temp, target);
  } catch (err) {
    if (aside && !fs.existsSync(target) && fs.existsSync(old)) fs.renameSync(old, target);
    fs.rmSync(temp, { recursive: true, force: true });
    if (err instanceof AppError) throw err;
    throw new AppError('BAD_REQUEST', `cannot put the export in place at ${target}: ${why(err)}`);
  }
  if (aside) fs.rmSync(old, { recursive: true, force: true });
  return result;
}
