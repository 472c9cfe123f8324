import type { z } from 'zod';
import type { Trajectory } from '../../../../shared/contract/entities/trajectory';
import type { RlSelection } from '../../../../shared/contract/export.contract';
import type { ReadDb } from '../../db/sqlite';
import { AppError } from '../../lib/errors';
import { tasksRepo } from '../../tasks/tasks.repo';
import { attemptSetSql } from '../../trajectories/attempt-set';
import { storedExportTask, type ExportTask } from '../export-task';
import { exportTrajectory, taskTools, type RedactionTally } from './sft-records';

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

/**
 * The rollouts of an RL package: stored trajectories of the exported tasks graded against them (not
 * external), not superseded, one per (attempt set, task, trial) — the latest stored; two runs or two
 * models are different attempts (trajectories/attempt-set.ts) — in (task, trial) order, so the trials
 * of a task form its group. Curation does not filter rollouts: a group needs its failures.
 */
export function rolloutIds(db: ReadDb, taskIds: readonly string[]): number[] {
  if (!taskIds.length) return [];
  const wanted = new Set(taskIds);
  const rows = db
    .prepare(
      `SELECT max(t.id) AS id, t.task_id FROM trajectories t
       WHERE t.external = 0 AND t.superseded = 0
       GROUP BY ${attemptSetSql('t')}, t.task_id, t.trial ORDER BY t.task_id, t.trial, id`,
    )
    .all() as { id: number; task_id: string }[];
  return rows.filter((r) => wanted.has(r.task_id)).map((r) => r.id);
}

/** Tasks and rollouts of an RL selection; without task ids: the tasks that have rollouts, else every task. */
export function rlInputs(
  db: ReadDb,
  s: z.output<typeof RlSelection>,
  tally: RedactionTally,
): { tasks: ExportTask[]; rollouts: Trajectory[] } {
  let ids = s.taskIds ?? [];
  if (!ids.length) {
    const withRollouts = new Set(
      (
        db.prepare('SELECT DISTINCT task_id FROM trajectories WHERE external = 0 AND superseded = 0').all() as {
          task_id: string;
        }[]
      ).map((r) => r.task_id),
    );
    const all = allTaskIds(db);
    ids = all.some((id) => withRollouts.has(id)) ? all.filter((id) => withRollouts.has(id)) : all;
  }
  if (!ids.length) throw new AppError('CONFLICT', 'the workspace holds no tasks: import or generate some first');
  const tasks = exportTasks(db, ids);
  const toolsOf = taskTools(db);
  const rollouts = s.withoutRollouts ? [] : rolloutIds(db, ids).map((id) => exportTrajectory(db, id, tally, toolsOf));
  return { tasks, rollouts };
}
