import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../lib/errors';
import { refuseReplacing } from '../export-target';
import { cleanLeftovers, tempSibling, tempTag } from '../leftovers';

/**
 * An export is built in a hidden temp sibling of the target (`.name.partial-…`) and renamed into
 * place only when every file is written and closed, so a full disk, a killed process or an
 * unwritable folder never leaves something that looks like a finished export (and a leftover temp
 * folder has no manifest). With overwrite, the old folder is swapped out by rename, then removed —
 * only if it is a previous export of this app away from the open workspace (export-target.ts, asked
 * at the start and again just before the swap). Leftovers of killed exports are cleaned first.
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

const exists = (p: string) => {
  try {
    fs.lstatSync(p);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw ioError('inspect the export folder', p, e);
  }
};

/** `workspacePath`: the open workspace, which nothing an overwrite replaces may hold. */
export function openExportFolder(outDir: string, overwrite: boolean, workspacePath?: string): ExportFolder {
  const target = path.resolve(outDir);
  const parent = path.dirname(target);
  // Before looking at the target: a previous export moved aside by a killed process comes back.
  cleanLeftovers(parent, workspacePath);
  if (exists(target) && !overwrite)
    throw new AppError(
      'CONFLICT',
      `the export folder ${target} already exists; choose another folder or ask to overwrite it`,
    );
  if (exists(target)) refuseReplacing(target, workspacePath);
  try {
    fs.mkdirSync(parent, { recursive: true });
  } catch (e) {
    throw ioError('create the folder', parent, e);
  }
  const tag = tempTag();
  const dir = tempSibling(target, 'partial', tag);
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
      // Asked again: the export may have taken minutes, and someone may have put files there meanwhile.
      const existing = exists(target);
      if (existing && !overwrite)
        throw new AppError('CONFLICT', `the export folder ${target} appeared while exporting; it is left as it is`);
      if (existing) refuseReplacing(target, workspacePath);
      const old = tempSibling(target, 'replaced', tag);
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
