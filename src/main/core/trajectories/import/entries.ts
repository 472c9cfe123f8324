import fs from 'node:fs';
import path from 'node:path';
import { kindOf } from '../../lib/read-file';

/** A path to import, or why it cannot be (the import reports it as that file's error and reads the others). */
export type Entry = { path: string; error: string | null };

/** Why a path cannot be read, from the error stat, readdir or open gave; never a bare errno. */
export function unreadable(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return 'a symlink loop: following its links never reaches a file (ELOOP)';
  if (code === 'EACCES' || code === 'EPERM') return `permission denied (${code})`;
  if (code === 'ENAMETOOLONG') return 'the path is too long (ENAMETOOLONG)';
  return `cannot read it (${code ?? (err as Error).message})`;
}

/** Why `file`, which stat did not find, is missing: a dangling symlink says where it points. */
function missing(file: string): string {
  try {
    return `a symlink to ${fs.readlinkSync(file)}, which does not exist`;
  } catch {
    return 'no such file';
  }
}

/**
 * Folders become their .json / .jsonl files, recursively, in name order (symlinked folders are not
 * followed, so a link back up cannot loop). What cannot be listed or stat'ed — a symlink loop, a
 * folder without permission — stays an entry with its reason, as a named file that is not there
 * does: stat errors used to escape as INTERNAL (ELOOP) and end the whole import.
 */
export function expand(p: string): Entry[] {
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(p, { throwIfNoEntry: false });
  } catch (err) {
    return [{ path: p, error: unreadable(err) }];
  }
  if (!st?.isDirectory()) return [{ path: p, error: null }];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(p, { withFileTypes: true });
  } catch (err) {
    return [{ path: p, error: `a folder that cannot be listed: ${unreadable(err)}` }];
  }
  return entries
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => {
      const full = path.join(p, e.name);
      if (e.isDirectory()) return expand(full);
      return /\.jsonl?$/i.test(e.name) ? [{ path: full, error: null }] : [];
    });
}

/** A listed file's size and date, or why it is not a regular file that can be read. */
export function statFile(file: string): { size: number; mtimeMs: number } | { error: string } {
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(file, { throwIfNoEntry: false });
  } catch (err) {
    return { error: unreadable(err) };
  }
  if (!st) return { error: missing(file) };
  if (!st.isFile()) return { error: `${kindOf(st)}, not a regular file; only files are read` };
  return { size: st.size, mtimeMs: st.mtimeMs };
}
