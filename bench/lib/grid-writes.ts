/**
 * The writes a grid index must not make slow, timed on one workspace file: re-assigning a bucket's tasks,
 * undoing that, clearing every task's bucket and applying every suggestion (bench/grid-bucket.bench.ts).
 * `withoutTaskMerge` takes parts of migration 0028 off the same file, for the baselines.
 */
import { createCore } from '../../src/main/core';
import { openDb } from '../../src/main/core/db/sqlite';

export type WriteCosts = { reassign: number; undo: number; clear: number; applyAll: number; tasks: number };

const TRIGGER = `DROP TRIGGER IF EXISTS trajectory_task_rows_insert; DROP TRIGGER IF EXISTS trajectory_task_rows_delete;
  DROP TRIGGER IF EXISTS trajectory_task_rows_move; DROP TABLE IF EXISTS trajectory_task_rows;`;
const INDEXES = `DROP INDEX IF EXISTS trajectories_task_source_reward; DROP INDEX IF EXISTS trajectories_task_score;
  DROP INDEX IF EXISTS trajectories_task_model; DROP INDEX IF EXISTS trajectories_task_collection;
  DROP INDEX IF EXISTS trajectories_task_created_at; DROP INDEX IF EXISTS curation_tasks_bucket_task;`;

/** 'all': the schema before 0028; 'counts': 0028's indexes only (no per-task row count table and triggers). */
export function withoutTaskMerge(file: string, part: 'all' | 'counts' = 'all'): void {
  const db = openDb(file);
  try {
    db.exec(part === 'all' ? TRIGGER + INDEXES : TRIGGER);
  } finally {
    db.close();
  }
}

/** One round of the four writes; the last (apply every suggestion) puts the file back as the round found it. */
export async function gridWrites(file: string, bucket: string, to: string): Promise<WriteCosts> {
  const db = openDb(file, { readOnly: true });
  const tasks = (
    db.prepare('SELECT task_id FROM curation_tasks WHERE bucket = ?').all(bucket) as { task_id: string }[]
  ).map((r) => r.task_id);
  db.close();
  const core = createCore({ workspacePath: file, watchIntervalMs: 0 });
  const timed = async (name: string, input: unknown) => {
    const t0 = performance.now();
    const r = await core.dispatch(name as 'curation.assign', input as never);
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
    return performance.now() - t0;
  };
  try {
    const reason = 'bench: grid writes';
    const reassign = await timed('curation.assign', { bucket: to, select: { tasks }, reason });
    const undo = await timed('curation.undo', {});
    const clear = await timed('curation.assign', { bucket: null, select: { all: true }, reason });
    const applyAll = await timed('curation.applySuggestions', { select: { all: true }, reason });
    return { reassign, undo, clear, applyAll, tasks: tasks.length };
  } finally {
    await core.close();
  }
}
