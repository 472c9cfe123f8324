import type { Check } from '../../../shared/contract/entities/checks';
import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import type { WriteDb } from '../db/sqlite';
import { AppError, notFound } from '../lib/errors';
import { storeTaskSpec } from '../tasks/spec-store';
import { storedTaskSpec } from '../tasks/task-spec-of';
import { tasksRepo } from '../tasks/tasks.repo';
import { regradeTask } from '../trajectories/stored-grade';
import { validateStored } from '../validation/validate-stored';
import { validationWriter } from '../validation/validation.repo';
import { slotsRepo } from '../plan/slots.repo';

/**
 * One check of a TaskSpec task replaced (same id), stored as the task's next version, validated at
 * once (as a fixture edit is), and every graded trajectory of the task re-graded — all in the
 * caller's transaction, so the grid never shows scores of a version that was not saved.
 */
export function updateCheck(
  db: WriteDb,
  input: { taskId: string; check: Check; expectedVersion?: number },
  now: string,
) {
  const repo = tasksRepo(db);
  const task = repo.get(input.taskId);
  if (!task) throw notFound(`task ${input.taskId}`);
  if (task.row.origin === 'imported')
    throw new AppError(
      'CONFLICT',
      `task ${input.taskId} was imported from Claw-Eval: its checks are derived from task.yaml, edit the task there`,
      [{ path: ['taskId'], message: 'imported task' }],
    );
  if (input.expectedVersion !== undefined && input.expectedVersion !== task.row.version)
    throw new AppError(
      'CONFLICT',
      `task ${input.taskId} is at version ${task.row.version} now (the edit was made on ${input.expectedVersion}); ` +
        'nothing was saved',
      [{ path: ['expectedVersion'], message: 'changed since' }],
    );
  const { spec } = storedTaskSpec(repo, input.taskId);
  const at = spec.checks.findIndex((c) => c.id === input.check.id);
  if (at < 0) throw notFound(`check ${input.check.id} of task ${input.taskId}`);
  const checks = spec.checks.map((c, i) => (i === at ? input.check : c));
  return saveSpecVersion(db, { ...spec, checks }, task.row.origin, `check ${input.check.id} edited`, now);
}

/**
 * Stores `next` as the task's next version, validates it at once and re-grades every graded
 * trajectory of the task with its checks (a check edit, a revert or its undo): one path, so the
 * grid's scores always belong to the version saved.
 */
export function saveSpecVersion(db: WriteDb, next: TaskSpec, origin: string, reason: string, now: string) {
  const repo = tasksRepo(db);
  const version = storeTaskSpec(db, next, { origin: origin === 'generated' ? 'generated' : 'manual', now, reason });
  const validated = validateStored(repo, next.task_id, now, (id) => slotsRepo(db).get(id));
  if (validated) validationWriter(db).save(next.task_id, validated.rounds, validated.hash);
  const last = validated?.rounds.at(-1);
  const failed = last?.verdicts.find((v) => v.status === 'fail');
  const summary = regradeTask(db, next.task_id, next);
  return {
    version,
    validation: (last?.valid ? 'valid' : 'invalid') as 'valid' | 'invalid',
    problem: failed ? `${failed.validator}: ${failed.messages[0]?.message ?? 'failed'}` : null,
    ...summary,
  };
}
