import type { z } from 'zod';
import type { Trajectory } from '../../../../shared/contract/entities/trajectory';
import type { RlSelection } from '../../../../shared/contract/export.contract';
import type { ReadDb } from '../../db/sqlite';
import { AppError } from '../../lib/errors';
import type { RolloutGroupKey } from '../advantages/rollout-groups';
import { tasksRepo } from '../../tasks/tasks.repo';
import { attemptSetSql } from '../../trajectories/attempt-set';
import { ContextCache } from '../../trajectories/load-trajectory';
import { storedExportTask, type ExportTask } from '../export-task';
import { importTools } from './import-tools';
import { exportRollout, taskTools, type RedactionTally } from './sft-records';

/** Every stored task id, in id order. */
export function allTaskIds(db: ReadDb): string[] {
  return (db.prepare('SELECT task_id FROM tasks ORDER BY task_id').all() as { task_id: string }[]).map(
    (r) => r.task_id,
  );
}

/** Stored tasks as the exporters take them; an unknown id is an error naming it. */
export function exportTasks(db: ReadDb, ids: readonly string[]): ExportTask[] {
  const repo = tasksRepo(db);
  const missing = ids.filter((id) => !repo.get(id));
  if (missing.length)
    throw new AppError(
      'NOT_FOUND',
      `no such task: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ''}`,
    );
  return ids.map((id) => storedExportTask(repo, id));
}

type RolloutFilter = { runs?: number[]; collections?: string[]; agents?: string[] };

/** `AND column IN (?, …)` for each filter given, and its parameters. */
function filterSql(f: RolloutFilter): { sql: string; params: (string | number)[] } {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  for (const [col, values] of [
    ['run_id', f.runs],
    ['collection', f.collections],
    ['agent', f.agents],
  ] as const)
    if (values?.length) {
      parts.push(`AND ${col} IN (${values.map(() => '?').join(', ')})`);
      params.push(...values);
    }
  return { sql: parts.join(' '), params };
}

/**
 * The rollouts of an RL package: stored trajectories of the exported tasks graded against them (not
 * external), not superseded, in the selection's runs, collections and agents, one per (attempt set, task, trial) —
 * the latest stored; two runs or two models are different attempts, never duplicates (trajectories/attempt-set.ts,
 * formats.md §6.4) — ordered by (task, run or collection, agent, trial), so each group's trials are together.
 * Curation does not filter rollouts: a group needs its failures.
 */
export function rolloutIds(
  db: ReadDb,
  taskIds: readonly string[],
  f: RolloutFilter = {},
): { id: number; group: RolloutGroupKey }[] {
  if (!taskIds.length) return [];
  const wanted = new Set(taskIds);
  const where = filterSql(f);
  const rows = db
    .prepare(
      `SELECT max(t.id) AS id, t.task_id, t.run_id, t.collection, t.agent FROM trajectories t
       WHERE t.external = 0 AND t.superseded = 0 ${where.sql}
       GROUP BY ${attemptSetSql('t')}, t.task_id, t.trial
       ORDER BY t.task_id, coalesce(t.run_id, -1), t.collection, t.agent, t.trial, id`,
    )
    .all(...where.params) as {
    id: number;
    task_id: string;
    run_id: number | null;
    collection: string;
    agent: string;
  }[];
  return rows
    .filter((r) => wanted.has(r.task_id))
    .map((r) => ({
      id: r.id,
      // A run's rollouts are one lineage wherever they were filed; the collection stands in only without a run.
      group: { run_id: r.run_id, collection: r.run_id === null ? r.collection : null, agent: r.agent },
    }));
}

/** Tasks and rollouts of an RL selection; without task ids: the tasks that have rollouts, else every task. */
export function rlInputs(
  db: ReadDb,
  s: z.output<typeof RlSelection>,
  tally: RedactionTally,
): { tasks: ExportTask[]; rollouts: Trajectory[]; groups: RolloutGroupKey[]; unredacted: (Trajectory | null)[] } {
  let ids = s.taskIds ?? [];
  const where = filterSql(s);
  if (!ids.length) {
    const withRollouts = new Set(
      (
        db
          .prepare(`SELECT DISTINCT task_id FROM trajectories WHERE external = 0 AND superseded = 0 ${where.sql}`)
          .all(...where.params) as { task_id: string }[]
      ).map((r) => r.task_id),
    );
    const all = allTaskIds(db);
    ids = all.some((id) => withRollouts.has(id)) ? all.filter((id) => withRollouts.has(id)) : all;
  }
  if (!ids.length) throw new AppError('CONFLICT', 'the workspace holds no tasks: import or generate some first');
  const tasks = exportTasks(db, ids);
  const toolsOf = taskTools(db);
  const givenOf = importTools(db);
  const contexts = new ContextCache(db);
  const picked = s.withoutRollouts ? [] : rolloutIds(db, ids, s);
  const out = picked.map((r) => exportRollout(db, r.id, tally, toolsOf, givenOf, contexts));
  // The stored copies go along to be graded (exportRlPackage's `unredacted`), never to be written.
  return {
    tasks,
    rollouts: out.map((o) => o.trajectory),
    groups: picked.map((r) => r.group),
    unredacted: out.map((o) => o.unredacted),
  };
}
