import fs from 'node:fs';
import { WorkspaceError } from '../lib/errors';

/**
 * Checks on a workspace file made before and around SQLite opens it. Hazards they guard against:
 * SQLite blocks forever opening a FIFO; opening a WAL-mode file creates `-wal` and `-shm` beside it
 * even to read it, so a file we refuse must be judged by its header first, and whatever companion
 * files our own open created must go again.
 */

/** 'CEWS' — marks a file as a CoworkEnv workspace so we never migrate someone else's database. */
export const APPLICATION_ID = 0x43455753;

const MAGIC = 'SQLite format 3\0';
const COMPANIONS = ['-wal', '-shm', '-journal'] as const;

/** The first 100 bytes of an SQLite file, as SQLite's file format documents them. */
export type FileHeader = { sqlite: boolean; userVersion: number; applicationId: number };

/**
 * Refuses what is not a regular file and reads the header of what is. Answers undefined for a
 * file that does not exist or is empty (a new workspace). Opens with O_NONBLOCK so a FIFO put at
 * the workspace path cannot block us; fstat decides after the open.
 */
export function readHeader(file: string): FileHeader | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EISDIR') throw new WorkspaceError(`${file} is a directory, not a workspace file`);
    throw new WorkspaceError(`cannot open workspace ${file}: ${(err as Error).message}`);
  }
  try {
    const st = fs.fstatSync(fd);
    if (st.isDirectory()) throw new WorkspaceError(`${file} is a directory, not a workspace file`);
    if (!st.isFile()) throw new WorkspaceError(`${file} is not a regular file (a device, FIFO or socket)`);
    if (st.size === 0) return undefined;
    const buf = Buffer.alloc(100);
    const n = fs.readSync(fd, buf, 0, 100, 0);
    if (n < 100 || buf.toString('latin1', 0, 16) !== MAGIC) return { sqlite: false, userVersion: 0, applicationId: 0 };
    return { sqlite: true, userVersion: buf.readUInt32BE(60), applicationId: buf.readUInt32BE(68) };
  } finally {
    fs.closeSync(fd);
  }
}

export const newerWorkspace = (file: string, version: number, known: number) =>
  new WorkspaceError(
    `${file} was written by a newer CoworkEnv Studio (schema ${version}; this app knows up to ${known}). Update` +
      ` the app to open it.`,
  );

export const notAWorkspace = (file: string) =>
  new WorkspaceError(`${file} is not a CoworkEnv workspace: the file is not an SQLite database or is corrupted`);

export const foreignDatabase = (file: string, appId: number) =>
  new WorkspaceError(`${file} is an SQLite database but not a CoworkEnv workspace (application_id ${appId})`);

/** What to tell a user whose workspace SQLite finds damaged: which tool recovers it, into a new file. */
export function damaged(file: string, problem: string): WorkspaceError {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const out = `${file.replace(/(\.coworkenv)?\.db$/, '')}.recovered.coworkenv.db`;
  return new WorkspaceError(
    `${file} is corrupted (SQLite's integrity check: ${problem}); it was refused and nothing was written to it. ` +
      `Keep a copy, then recover what can be read into a new workspace with the sqlite3 tool: ` +
      `sqlite3 ${q(file)} .recover | sqlite3 ${q(out)} — and open that file (--workspace ${q(out)}).`,
  );
}

/** Which of the file's companions exist now: compare after a refusal to remove only those we made. */
export function companionsPresent(file: string): Set<string> {
  return new Set(COMPANIONS.map((c) => file + c).filter((f) => fs.existsSync(f)));
}

/**
 * After refusing `file` (its connection closed): removes the companion files that our open made.
 * A `-wal` or `-journal` with content is left alone, and so is the `-shm` beside such a `-wal`:
 * they would hold someone's transactions.
 */
export function removeCompanionsWeMade(file: string, before: Set<string>): void {
  const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
  for (const c of COMPANIONS) {
    const f = file + c;
    if (before.has(f) || !fs.existsSync(f)) continue;
    if (c === '-shm' ? size(`${file}-wal`) > 0 : size(f) > 0) continue;
    fs.rmSync(f, { force: true });
  }
}

/** Blocks the thread for `ms` (start-up only: waiting for another process's lock to go). */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
