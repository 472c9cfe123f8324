import type { ReadDb } from '../db/sqlite';
import { AppError } from './errors';

/** At most this many unknown names are quoted: a pasted list of thousands makes a message nobody reads. */
const NAMED = 10;
/** The known names are listed when there are at most this many; otherwise `hint` says where to find them. */
const KNOWN = 12;

/**
 * Refuses names the workspace does not hold. An unknown task id or pool is a typo or another workspace, and
 * answering it with an empty result ("0 tasks changed", "0 exported") reads as success; so every unknown one is
 * named (with its index in the input, as an issue) and, where there are few, the known ones too.
 */
export function refuseUnknown(o: {
  /** Singular and plural: "task" / "tasks", "pool" / "pools". */
  noun: [string, string];
  given: readonly string[];
  unknown: ReadonlySet<string>;
  path: (string | number)[];
  /** `given` is the list at `path` (issues name each index), not one value. Default true. */
  list?: boolean;
  known?: readonly string[];
  hint?: string;
}): void {
  const bad = [...new Set(o.given.filter((n) => o.unknown.has(n)))];
  if (!bad.length) return;
  const [one, many] = o.noun;
  const more = bad.length > NAMED ? ` (and ${bad.length - NAMED} more)` : '';
  let known = o.hint ? `; ${o.hint}` : '';
  if (o.known && o.known.length <= KNOWN)
    known = o.known.length ? `; known: ${o.known.join(', ')}` : `; the workspace holds no ${many}`;
  const at = (i: number) => (o.list === false ? o.path : [...o.path, i]);
  throw new AppError(
    'NOT_FOUND',
    `no such ${bad.length > 1 ? many : one}: ${bad.slice(0, NAMED).join(', ')}${more}${known}`,
    o.given.flatMap((n, i) => (o.unknown.has(n) ? [{ path: at(i), message: 'unknown' }] : [])).slice(0, NAMED),
  );
}

/**
 * The values of `ids` not in `table.column` (one query however many: the list travels as JSON). `table` and `column`
 * are names from the code, never from a request.
 */
export function missingIn(db: ReadDb, table: string, column: string, ids: readonly (string | number)[]): Set<string> {
  if (!ids.length) return new Set();
  const rows = db
    .prepare(`SELECT DISTINCT value AS v FROM json_each(?) WHERE value NOT IN (SELECT ${column} FROM ${table})`)
    .all(JSON.stringify(ids)) as { v: string | number }[];
  return new Set(rows.map((r) => String(r.v)));
}

/** Refuses task ids the workspace does not hold (`tasks`), naming each; `path` locates them in the input. */
export function refuseUnknownTasks(db: ReadDb, ids: readonly string[] | undefined, path: (string | number)[]): void {
  if (!ids?.length) return;
  const unknown = missingIn(db, 'tasks', 'task_id', ids);
  if (!unknown.size) return;
  const some = db.prepare('SELECT task_id FROM tasks ORDER BY task_id LIMIT ?').all(KNOWN + 1) as { task_id: string }[];
  refuseUnknown({
    noun: ['task', 'tasks'],
    given: ids,
    unknown,
    path,
    known: some.map((r) => r.task_id),
    hint: 'the tasks grid (or `coworkenv call tasks.list`) lists them',
  });
}
