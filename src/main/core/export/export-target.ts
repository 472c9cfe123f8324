import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../lib/errors';
import { RL_PACKAGE_FORMAT } from './rl/package-record';

/**
 * What an export's `overwrite` may replace (issue 16). Replacing is a rename aside and a recursive
 * delete, so it must only ever meet a folder that is a previous export of this app: its
 * manifest.json names the app and an export format, everything in it is a file that manifest
 * lists (at the listed size), and it is not the open workspace's folder or any ancestor of it and
 * leads to none of the workspace's files through a link. Anything else is refused, naming what is
 * in the way, before anything is moved. Every export kind (SFT, RL, Claw-Eval) asks here, at the
 * start and again just before the swap; the workspace handlers ask before a job starts.
 */

/** `format` of each export kind's manifest (sft/export-sft.ts, rl/package-record.ts, claw-eval/export-claw-eval.ts). */
const EXPORT_FORMATS = new Set(['coworkenv-sft-export', RL_PACKAGE_FORMAT, 'coworkenv-claw-eval-export']);
/** `tool.name` in every manifest (package-files.ts TOOL_NAME, which imports this module, and sft/tool-version.ts). */
const APP = 'coworkenv-studio';
/** What each export writes besides the files its manifest lists. */
const MANIFEST = 'manifest.json';
/** A manifest too large for one string is not read (a huge SFT manifest is ~300 bytes a record). */
const MAX_MANIFEST_BYTES = 256 * 1024 * 1024;
const SHOWN = 5;

type Id = { dev: number; ino: number };
const same = (a: Id) => (b: Id) => a.dev === b.dev && a.ino === b.ino;
const within = (child: string, parent: string) => {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
};
const idOf = (p: string): Id[] => {
  try {
    const s = fs.statSync(p);
    return [{ dev: s.dev, ino: s.ino }];
  } catch {
    return [];
  }
};
const realOf = (p: string) => {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
};

/**
 * The open workspace as the guard compares it: by identity (device and inode, which sees through
 * links, bind mounts and case-insensitive names) and by real path. `dirs` is its folder and every
 * ancestor, along the real path and along the path it was opened by.
 */
type Workspace = { file: string; files: Id[]; dirs: Id[]; realDir: string; realFiles: string[] };

function workspaceOf(workspacePath: string | undefined): Workspace | null {
  if (!workspacePath || workspacePath === ':memory:') return null;
  const file = path.resolve(workspacePath);
  const realDir = realOf(path.dirname(file));
  // SQLite's companions: what a delete would take with it besides the file itself.
  const realFiles = ['', '-wal', '-shm', '-journal'].map((s) => path.join(realDir, `${path.basename(file)}${s}`));
  const chain = (d: string): string[] => (path.dirname(d) === d ? [d] : [d, ...chain(path.dirname(d))]);
  const dirs = [...chain(realDir), ...chain(path.dirname(file))].flatMap(idOf);
  return { file, files: realFiles.flatMap(idOf), dirs, realDir, realFiles };
}

/** Whether a folder is the open workspace's folder or an ancestor of it. */
export function holdsWorkspace(dir: string, workspacePath: string | undefined): boolean {
  const ws = workspaceOf(workspacePath);
  return ws !== null && leadsTo(ws, dir, true);
}

/** Whether `abs` (followed if a link) is one of the workspace's files, its folder or an ancestor. */
function leadsTo(ws: Workspace, abs: string, isDir: boolean): boolean {
  const id = idOf(abs)[0];
  const real = realOf(abs);
  if (id && (ws.files.some(same(id)) || ws.dirs.some(same(id)))) return true;
  return ws.realFiles.includes(real) || (isDir && within(ws.realDir, real));
}

/** The files a manifest of ours lists (path → bytes, when it says) and the folders they lie in; or why not ours. */
type Listed = { files: Map<string, number | null>; dirs: Set<string> };

function ownManifest(dir: string): Listed | { why: string } {
  const file = path.join(dir, MANIFEST);
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return { why: `it has no ${MANIFEST}` };
  }
  if (!st.isFile()) return { why: `its ${MANIFEST} is not a file` };
  if (st.size > MAX_MANIFEST_BYTES) return { why: `its ${MANIFEST} is too large to check` };
  let m: { format?: unknown; tool?: { name?: unknown }; files?: unknown };
  try {
    m = JSON.parse(fs.readFileSync(file, 'utf8')) ?? {};
  } catch (e) {
    return { why: `its ${MANIFEST} cannot be read: ${(e as Error).message}` };
  }
  const files = Array.isArray(m.files) ? (m.files as { path?: unknown; bytes?: unknown }[]) : null;
  const ours =
    m.tool?.name === APP && EXPORT_FORMATS.has(m.format as string) && files?.every((f) => typeof f?.path === 'string');
  if (!ours || !files) return { why: `its ${MANIFEST} does not name one` };
  const listed: Listed = { files: new Map(), dirs: new Set() };
  for (const f of files) {
    const rel = f.path as string;
    listed.files.set(rel, typeof f.bytes === 'number' ? f.bytes : null);
    for (let d = path.posix.dirname(rel); d !== '.' && d !== '/'; d = path.posix.dirname(d)) listed.dirs.add(d);
  }
  return listed;
}

/**
 * What in `root` is in the way: entries an export did not write (folders as `name/`, not entered;
 * listed files of another size as `name (changed)`) and the first entry that leads to the
 * workspace. Without a manifest of ours only the top level is looked at: it is refused anyway.
 */
function scan(root: string, listed: Listed | null, ws: Workspace | null) {
  const foreign: string[] = [];
  let workspace: string | null = null;
  const visit = (rel: string) => {
    for (const name of fs.readdirSync(path.join(root, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const abs = path.join(root, r);
      const st = fs.lstatSync(abs);
      if (ws && !workspace && (st.isSymbolicLink() || st.isFile() || st.isDirectory()))
        if (leadsTo(ws, abs, !st.isFile())) workspace = r;
      if (st.isDirectory()) {
        if (listed?.dirs.has(r)) visit(r);
        else foreign.push(`${r}/`);
      } else if (listed && r === MANIFEST && st.isFile()) {
        // the manifest itself
      } else {
        const bytes = listed?.files.get(r);
        // A link is never something an export wrote, even under a listed name.
        if (bytes === undefined || !st.isFile()) foreign.push(r);
        else if (bytes !== null && bytes !== st.size) foreign.push(`${r} (changed)`);
      }
    }
  };
  visit('');
  return { foreign, workspace };
}

const some = (names: string[]) =>
  `${names.slice(0, SHOWN).join(', ')}${names.length > SHOWN ? ` (and ${names.length - SHOWN} more)` : ''}`;

const refusal = (target: string, why: string, then = 'choose another folder') =>
  new AppError('CONFLICT', `refusing to overwrite ${target}: ${why}; nothing was deleted (${then})`);

/**
 * Throws CONFLICT unless the existing `target` may be replaced by an export: an empty folder, or a
 * previous export of this app holding only its own files, away from the open workspace.
 */
export function refuseReplacing(target: string, workspacePath?: string): void {
  const st = fs.lstatSync(target);
  if (st.isSymbolicLink())
    throw refusal(target, 'it is a symbolic link', 'give the folder it points to, or another folder');
  if (!st.isDirectory())
    throw new AppError('CONFLICT', `${target} exists and is not a folder; it is never overwritten`);
  const ws = workspaceOf(workspacePath);
  if (ws && leadsTo(ws, target, true)) throw refusal(target, `it holds the open workspace ${ws.file}`);
  const listed = ownManifest(target);
  let found: ReturnType<typeof scan>;
  try {
    found = scan(target, 'why' in listed ? null : listed, ws);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw refusal(
      target,
      `what it holds cannot be checked (${err.code ?? err.message}${err.path ? ` at ${err.path}` : ''})`,
    );
  }
  if (ws && found.workspace)
    throw refusal(target, `it holds the open workspace ${ws.file} (through ${found.workspace})`);
  if ('why' in listed) {
    if (found.foreign.length)
      throw refusal(
        target,
        `it is not an export of CoworkEnv Studio (${listed.why}); it holds ${some(found.foreign)}`,
        'choose another folder, or empty it yourself',
      );
  } else if (found.foreign.length)
    throw refusal(
      target,
      `it holds files this export did not write: ${some(found.foreign)}`,
      'choose another folder, or move them out of it',
    );
}
