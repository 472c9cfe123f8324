import { UpstreamCheck } from '../../../shared/contract/upstream.contract';
import { prepareCached, type ReadDb, type WriteDb } from '../db/sqlite';

/**
 * Settings → Upstream grader, kept in workspace_meta: the checkout folder, the Python, and the last Check of exactly
 * those two (a check of other settings is not shown as theirs). Paths only: no key is ever kept here.
 */
const ROOT = 'upstream_root';
const PYTHON = 'upstream_python';
const CHECK = 'upstream_check';
export const DEFAULT_PYTHON = 'python3';

const get = (db: ReadDb, key: string) =>
  (prepareCached(db, 'SELECT value FROM workspace_meta WHERE key = ?').get(key) as { value: string } | undefined)
    ?.value ?? null;

function put(db: WriteDb, key: string, value: string | null): void {
  if (value === null) prepareCached(db, 'DELETE FROM workspace_meta WHERE key = ?').run(key);
  else
    prepareCached(
      db,
      'INSERT INTO workspace_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
}

export type UpstreamPaths = { root: string | null; python: string };

export const upstreamPaths = (db: ReadDb): UpstreamPaths => ({
  root: get(db, ROOT),
  python: get(db, PYTHON) ?? DEFAULT_PYTHON,
});

/** The last check, when it was of the current settings (a stored check that no longer parses counts as none). */
export function lastUpstreamCheck(db: ReadDb): UpstreamCheck | null {
  const raw = get(db, CHECK);
  if (!raw) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null; // written by something else: shown as never checked, and the next Check replaces it
  }
  const parsed = UpstreamCheck.safeParse(json);
  if (!parsed.success) return null;
  const p = upstreamPaths(db);
  return parsed.data.root === p.root && parsed.data.python === p.python ? parsed.data : null;
}

export function setUpstreamPaths(db: WriteDb, root: string | null, python: string | null): void {
  put(db, ROOT, root);
  put(db, PYTHON, python);
}

export const storeUpstreamCheck = (db: WriteDb, check: UpstreamCheck): void => put(db, CHECK, JSON.stringify(check));

export const importedTaskIds = (db: ReadDb) =>
  (
    prepareCached(db, "SELECT task_id FROM tasks WHERE origin = 'imported' ORDER BY task_id").all() as {
      task_id: string;
    }[]
  ).map((r) => r.task_id);

export const upstreamSettings = (db: ReadDb) => ({
  ...upstreamPaths(db),
  check: lastUpstreamCheck(db),
  importedTasks: (prepareCached(db, "SELECT count(*) AS n FROM tasks WHERE origin = 'imported'").get() as { n: number })
    .n,
});
