import fs from 'node:fs';
import path from 'node:path';
import { readUtf8File, resolvesInside } from '../../lib/read-file';

/** A task folder to import and the Claw-Eval root its fixture paths resolve against (§1.1). */
export type TaskLocation = { dir: string; root: string | null };

/**
 * Documented limits (README "Limits"). Real task.yaml files are a few KB and fixtures a few hundred;
 * these leave room for large hand-made tasks and stay far below what a 2 GB heap survives.
 */
export const MAX_TASK_YAML_BYTES = 8 * 1024 * 1024;
export const MAX_FIXTURE_BYTES = 64 * 1024 * 1024;

/**
 * `input` is a task folder (holds task.yaml), a repository root holding tasks/<id>/task.yaml, or
 * that root's `tasks` folder itself (the folder people pick in a file dialog): it is taken as the
 * root's. A lone task folder inside a `tasks/` directory gets that directory's parent as its root.
 */
export function locateTasks(input: string): TaskLocation[] {
  let abs = path.resolve(input);
  if (
    path.basename(abs) === 'tasks' &&
    !fs.existsSync(path.join(abs, 'task.yaml')) &&
    !fs.existsSync(path.join(abs, 'tasks')) &&
    fs.existsSync(abs) &&
    fs.statSync(abs).isDirectory() &&
    fs.readdirSync(abs).some((d) => fs.existsSync(path.join(abs, d, 'task.yaml')))
  )
    abs = path.dirname(abs);
  if (!fs.existsSync(abs)) throw new Error(`${input}: no such file or folder`);
  if (fs.existsSync(path.join(abs, 'task.yaml'))) {
    const parent = path.dirname(abs);
    return [{ dir: abs, root: path.basename(parent) === 'tasks' ? path.dirname(parent) : null }];
  }
  const tasksDir = path.join(abs, 'tasks');
  if (fs.existsSync(tasksDir) && fs.statSync(tasksDir).isDirectory()) {
    return fs
      .readdirSync(tasksDir)
      .sort()
      .map((d) => path.join(tasksDir, d))
      .filter((d) => fs.existsSync(path.join(d, 'task.yaml')))
      .map((dir) => ({ dir, root: abs }));
  }
  throw new Error(
    `${input}: neither a task folder (no task.yaml), a Claw-Eval root (no tasks/ folder) nor a tasks/ folder of ` +
      `task folders`,
  );
}

/**
 * Reads a task's text file: a regular file (no FIFO, device or socket), at most `maxBytes` read,
 * strict UTF-8, and — symlinks resolved — inside the task's root (or its folder without one).
 */
export function readTaskFile(file: string, loc: TaskLocation, maxBytes: number): string {
  const root = loc.root ?? loc.dir;
  if (!resolvesInside(file, root))
    throw new Error(`${file} is a symlink to a file outside ${root}; only files inside it are read`);
  return readUtf8File(file, maxBytes);
}

/**
 * Resolves a fixture path from a service's env (root-relative upstream, §1.1). Refuses paths that
 * escape the root (by text here; readTaskFile checks where symlinks lead). Without a root,
 * `tasks/<own id>/…` maps onto the folder itself.
 */
export function resolveFixturePath(rel: string, loc: TaskLocation, taskId: string): string {
  if (path.isAbsolute(rel))
    throw new Error(`fixture path ${rel} is absolute; Claw-Eval paths are relative to the repository root`);
  if (loc.root) {
    const file = path.resolve(loc.root, rel);
    if (!file.startsWith(path.resolve(loc.root) + path.sep))
      throw new Error(`fixture path ${rel} escapes the root ${loc.root}`);
    return file;
  }
  const own = `tasks/${taskId}/`;
  const norm = rel.replace(/\\/g, '/');
  if (!norm.startsWith(own))
    throw new Error(
      `fixture path ${rel} points outside this task folder, and a lone task folder has no Claw-Eval root to resolve ` +
        `it against; import the repository root instead`,
    );
  const file = path.resolve(loc.dir, norm.slice(own.length));
  if (!file.startsWith(path.resolve(loc.dir) + path.sep))
    throw new Error(`fixture path ${rel} escapes the task folder`);
  return file;
}
