import os from 'node:os';
import type { BatchResult, TaskSelection, TrajectorySelection } from '../../../shared/contract/entities/curation';
import { compileWhere } from '../db/sql-filter';
import { prepareCached, type ReadDb, type WriteDb } from '../db/sqlite';
import { AppError } from '../lib/errors';
import { missingIn, refuseUnknown } from '../lib/unknown-names';
import { TRAJECTORY_COLUMNS } from '../trajectories/trajectories.repo';
import { CURATION_COLUMNS, CURATION_TABLE } from './curation.repo';

export type Target = 'bucket' | 'pool' | 'override';
type Kind = 'assign' | 'suggest' | 'override' | 'pool';

/** Where each target's value lives: its table, key column and value column. */
const PLACES = {
  bucket: { table: 'curation_tasks', key: 'task_id', col: 'bucket', source: 'curation_grid' },
  pool: { table: 'curation_tasks', key: 'task_id', col: 'pool', source: 'curation_grid' },
  override: { table: 'trajectories', key: 'id', col: 'include_override', source: 'trajectories' },
} as const;

/** The OS user name of this process: the "who" of every batch (the desktop app, the CLI and the server alike). */
export function osUser(): string {
  try {
    return os.userInfo().username || process.env.USER || 'unknown';
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
}

type Selection = TaskSelection | TrajectorySelection;

/** The items a selection names, as `SELECT key, current, new FROM …` over the target's source. */
function itemsSql(target: Target, select: Selection, newSql: string): { sql: string; params: unknown[] } {
  const p = PLACES[target];
  const head = `SELECT ${p.key} AS item, ${p.col} AS cur, ${newSql} AS nxt FROM ${p.source}`;
  if ('tasks' in select || 'trajectories' in select) {
    const ids = 'tasks' in select ? select.tasks : select.trajectories;
    return { sql: `${head} WHERE ${p.key} IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(ids)] };
  }
  if ('all' in select) return { sql: head, params: [] };
  const w =
    target === 'override'
      ? compileWhere(select.where, TRAJECTORY_COLUMNS)
      : compileWhere(select.where, CURATION_COLUMNS, CURATION_TABLE.search);
  return { sql: `${head} ${w.sql}`, params: w.params };
}

/**
 * Ids the grid does not hold select nothing: "0 tasks changed" for a typo read as done. Refused, naming each, before
 * anything is logged or written.
 */
function refuseUnknownItems(db: ReadDb, select: Selection): void {
  if ('tasks' in select)
    refuseUnknown({
      noun: ['task in the curation grid', 'tasks in the curation grid'],
      given: select.tasks,
      unknown: missingIn(db, 'curation_tasks', 'task_id', select.tasks),
      path: ['select', 'tasks'],
      hint: 'a task is in the grid once it has trajectories',
    });
  else if ('trajectories' in select)
    refuseUnknown({
      noun: ['trajectory', 'trajectories'],
      given: select.trajectories.map(String),
      unknown: missingIn(db, 'trajectories', 'id', select.trajectories),
      path: ['select', 'trajectories'],
    });
}

function newBatch(
  db: WriteDb,
  b: { kind: string; target: string; value: string | null; reason: string; selection: unknown; now: string },
  ofBatch: number | null = null,
): number {
  return Number(
    prepareCached(
      db,
      `INSERT INTO curation_batches (kind, target, value, who, at, reason, selection, changed, of_batch)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)`,
    ).run(b.kind, b.target, b.value, osUser(), b.now, b.reason, JSON.stringify(b.selection), ofBatch).lastInsertRowid,
  );
}

/** Writes a batch's changes onto its target; a batch without changes is dropped from the log. */
function applyChanges(db: WriteDb, target: Target, batchId: number, keepEmpty = false): number {
  const p = PLACES[target];
  const changed = (
    prepareCached(db, 'SELECT count(*) AS n FROM curation_changes WHERE batch_id = ?').get(batchId) as { n: number }
  ).n;
  if (!changed) {
    if (!keepEmpty) prepareCached(db, 'DELETE FROM curation_batches WHERE id = ?').run(batchId);
    return 0;
  }
  const keyOf = target === 'override' ? 'CAST(c.item AS INTEGER)' : 'c.item';
  prepareCached(
    db,
    `UPDATE ${p.table} SET ${p.col} = c.after FROM curation_changes c
     WHERE c.batch_id = ? AND ${p.table}.${p.key} = ${keyOf}`,
  ).run(batchId);
  // A pool change changes which rules suggest the bucket: settle recomputes these tasks before commit.
  if (target === 'pool')
    prepareCached(
      db,
      'INSERT OR IGNORE INTO curation_dirty (task_id) SELECT item FROM curation_changes WHERE batch_id = ?',
    ).run(batchId);
  prepareCached(db, 'UPDATE curation_batches SET changed = ? WHERE id = ?').run(changed, batchId);
  return changed;
}

type BatchInput = {
  kind: Kind;
  target: Target;
  value: string | null;
  select: Selection;
  /** Suggestions: also replace buckets already assigned (by a person or an earlier batch); default: fill empty ones. */
  replaceAssigned?: boolean | undefined;
};

/** The changes a batch would make, as `SELECT item, cur, nxt` (its parameters follow). */
function changesSql(a: BatchInput): { sql: string; params: unknown[] } {
  const perItem = a.kind === 'suggest';
  const items = itemsSql(a.target, a.select, perItem ? 'suggested' : '?');
  const params = perItem ? items.params : [a.value, ...items.params];
  const keep = perItem ? `AND nxt IS NOT NULL ${a.replaceAssigned ? '' : 'AND cur IS NULL'}` : '';
  return { sql: `SELECT item, cur, nxt FROM (${items.sql}) WHERE cur IS NOT nxt ${keep}`, params };
}

/**
 * What a batch would do, without doing it (the page shows it before it changes anything): how many
 * items the selection names, how many would change, and how many of those hold a value now that
 * would be replaced. Suggestions also count the assigned buckets they leave alone.
 */
export function previewBatch(db: ReadDb, a: BatchInput) {
  refuseUnknownItems(db, a.select);
  const items = itemsSql(a.target, a.select, a.kind === 'suggest' ? 'suggested' : '?');
  const itemParams = a.kind === 'suggest' ? items.params : [a.value, ...items.params];
  const selected = (prepareCached(db, `SELECT count(*) AS n FROM (${items.sql})`).get(...itemParams) as { n: number })
    .n;
  const c = changesSql(a);
  const r = prepareCached(db, `SELECT count(*) AS n, count(cur) AS replaced FROM (${c.sql})`).get(...c.params) as {
    n: number;
    replaced: number;
  };
  const kept = a.kind === 'suggest' && !a.replaceAssigned ? changesCount(db, { ...a, replaceAssigned: true }) - r.n : 0;
  return { selected, changed: r.n, replaced: r.replaced, keptAssigned: kept };
}

const changesCount = (db: ReadDb, a: BatchInput) => {
  const c = changesSql(a);
  return (prepareCached(db, `SELECT count(*) AS n FROM (${c.sql})`).get(...c.params) as { n: number }).n;
};

/**
 * One bulk action in the caller's transaction: every selected item whose value differs from the new
 * one gets a change row (before/after), then the target is written from those rows. `value` null
 * with kind 'suggest' means "each task's own suggestion" (tasks without one are left alone, and so
 * are tasks with a bucket already, unless replaceAssigned: a person's choice is never overwritten
 * by a rule without being asked).
 */
export function applyBatch(db: WriteDb, a: BatchInput & { reason: string; now: string }): BatchResult {
  refuseUnknownItems(db, a.select);
  const batchId = newBatch(db, { ...a, selection: a.select });
  const c = changesSql(a);
  prepareCached(
    db,
    `INSERT INTO curation_changes (batch_id, item, before, after) SELECT ?, item, cur, nxt FROM (${c.sql})`,
  ).run(batchId, ...c.params);
  return {
    batchId: applyChanges(db, a.target, batchId) ? batchId : null,
    changed: changedOf(db, batchId),
    conflicts: 0,
  };
}

const changedOf = (db: WriteDb, id: number) =>
  (prepareCached(db, 'SELECT changed FROM curation_batches WHERE id = ?').get(id) as { changed: number } | undefined)
    ?.changed ?? 0;

type BatchRow = { id: number; kind: string; target: string; changed: number; undone_by: number | null };
const UNDOABLE = "kind IN ('assign', 'suggest', 'override', 'pool')";

function pick(db: WriteDb, id: number | undefined, undo: boolean): BatchRow {
  const sql = 'SELECT id, kind, target, changed, undone_by FROM curation_batches';
  const b = (
    id !== undefined
      ? prepareCached(db, `${sql} WHERE id = ?`).get(id)
      : undo
        ? prepareCached(db, `${sql} WHERE ${UNDOABLE} AND undone_by IS NULL ORDER BY id DESC LIMIT 1`).get()
        : prepareCached(db, `${sql} WHERE undone_by IS NOT NULL ORDER BY undone_by DESC LIMIT 1`).get()
  ) as BatchRow | undefined;
  if (!b) {
    if (id !== undefined) throw new AppError('NOT_FOUND', `no curation batch ${id}`);
    throw new AppError('CONFLICT', undo ? 'nothing to undo' : 'nothing to redo');
  }
  if (!['assign', 'suggest', 'override', 'pool'].includes(b.kind))
    throw new AppError(
      'CONFLICT',
      `batch ${b.id} is ${b.kind === 'rules' ? 'a rule edit' : `a ${b.kind}`}: undo and redo act on bulk actions ` +
        '(to take back an undo, redo the batch it undid)',
    );
  if (undo && b.undone_by !== null)
    throw new AppError('CONFLICT', `batch ${b.id} is already undone (by batch ${b.undone_by})`);
  if (!undo && b.undone_by === null) throw new AppError('CONFLICT', `batch ${b.id} is not undone: nothing to redo`);
  return b;
}

/**
 * Undo (restore each item's `before`) or redo (re-apply its `after`) of a past batch, as a new
 * logged batch. Only items still holding the value the batch left (undo) or found (redo) are
 * changed: an item a later batch changed again is left as it is and counted in `conflicts`.
 */
export function undoRedo(db: WriteDb, undo: boolean, id: number | undefined, reason: string | undefined, now: string) {
  const b = pick(db, id, undo);
  const target = b.target as Target;
  const p = PLACES[target];
  const batchId = newBatch(
    db,
    {
      kind: undo ? 'undo' : 'redo',
      target,
      value: null,
      reason: reason?.trim() || `${undo ? 'undo' : 'redo'} of batch ${b.id}`,
      selection: { batch: b.id },
      now,
    },
    b.id,
  );
  const [from, to] = undo ? ['after', 'before'] : ['before', 'after'];
  const keyOf = target === 'override' ? 'CAST(c.item AS INTEGER)' : 'c.item';
  prepareCached(
    db,
    `INSERT INTO curation_changes (batch_id, item, before, after)
     SELECT ?, c.item, c.${from}, c.${to} FROM curation_changes c JOIN ${p.table} t ON t.${p.key} = ${keyOf}
     WHERE c.batch_id = ? AND t.${p.col} IS c.${from}`,
  ).run(batchId, b.id);
  prepareCached(db, 'UPDATE curation_batches SET undone_by = ? WHERE id = ?').run(undo ? batchId : null, b.id);
  // Kept even when every item changed since: the batch's undone state is what the user asked for.
  const changed = applyChanges(db, target, batchId, true);
  return { batchId, changed, conflicts: b.changed - changed };
}
