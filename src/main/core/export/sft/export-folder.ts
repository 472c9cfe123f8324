import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../lib/errors';

/**
 * An export is built in a hidden temp sibling of the target (`.name.partial-…`) and renamed into
 * place only when every file is written and closed, so a full disk, a killed process or an
 * unwritable folder never leaves something that looks like a finished export (and a leftover temp
 * folder has no manifest). With overwrite, the old folder is swapped out by rename, then removed.
 */
export type ExportFolder = { dir: string; commit(): void; abort(): void };

const IO_WHY: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is not a folder',
  ENOTEMPTY: 'the target appeared while exporting',
  EEXIST: 'the target appeared while exporting',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
};

/**
 * An I/O failure (an errno error) as an error a person can act on: what was being done, where, and
 * why. Anything else (an AppError, a bug) passes through unchanged.
 */
export function ioError(what: string, where: string, e: unknown): unknown {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (e instanceof AppError || typeof code !== 'string' || !(e instanceof Error)) return e;
  const why = IO_WHY[code] ?? e.message;
  const file = (e as NodeJS.ErrnoException).path;
  return new AppError('BAD_REQUEST', `cannot ${what} ${where}: ${why} (${code}${file ? ` at ${file}` : ''})`);
}

export function openExportFolder(outDir: string, overwrite: boolean): ExportFolder {
  const target = path.resolve(outDir);
  const parent = path.dirname(target);
  const base = path.basename(target);
  let existing: fs.Stats | undefined;
  try {
    existing = fs.statSync(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw ioError('inspect the export folder', target, e);
  }
  if (existing && !overwrite)
    throw new AppError(
      'CONFLICT',
      `the export folder ${target} already exists; choose another folder or ask to overwrite it`,
    );
  if (existing && !existing.isDirectory())
    throw new AppError('CONFLICT', `${target} exists and is not a folder; it is never overwritten`);
  try {
    fs.mkdirSync(parent, { recursive: true });
  } catch (e) {
    throw ioError('create the folder', parent, e);
  }
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const dir = path.join(parent, `.${base}.partial-${tag}`);
  try {
    fs.mkdirSync(dir);
  } catch (e) {
    throw ioError('write the export in', parent, e);
  }
  const abort = () => fs.rmSync(dir, { recursive: true, force: true });
  return {
    dir,
    abort,
    commit() {
      const old = path.join(parent, `.${base}.replaced-${tag}`);
      try {
        if (existing) fs.renameSync(target, old);
        fs.renameSync(dir, target);
      } catch (e) {
        // Put the previous export back if it was moved aside; the new one is discarded.
        if (existing && fs.existsSync(old) && !fs.existsSync(target)) fs.renameSync(old, target);
        abort();
        throw ioError('move the finished export to', target, e);
      }
      if (existing) fs.rmSync(old, { recursive: true, force: true });
    },
  };
}
