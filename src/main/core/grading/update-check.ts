import type { Check } from '../../../shared/contract/entities/checks';
import type { WriteDb } from '../db/sqlite';
import { AppError, notFound } from '../lib/errors';
import { storeTaskSpec } from '../tasks/spec-store';
import { storedTaskSpec } from '../tasks/task-spec-of';
import { tasksRepo } from '../tasks/tasks.repo';
import { regradeTask } from '../trajectories/stored-grade';
import { validateStored } from '../validation/validate-stored';
import { validationWriter } from '../validation/validation.repo';
import { slotsRepo } from '../db/repos/slots.repo';

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
  const next = { ...spec, checks };
  const version = storeTaskSpec(db, next, {
    origin: task.row.origin === 'generated' ? 'generated' : 'manual',
    now,
    reason: `check ${input.check.id} edited`,
  });
  const validated = validateStored(repo, input.taskId, now, (id) => slotsRepo(db).get(id));
  if (validated) validationWriter(db).save(input.taskId, validated.rounds, validated.hash);
  const last = validated?.rounds.at(-1);
  const failed = last?.verdicts.find((v) => v.status === 'fail');
  const summary = regradeTask(db, input.taskId, next);
  return {
    version,
    validation: (last?.valid ? 'valid' : 'invalid') as 'valid' | 'invalid',
    problem: failed ? `${failed.validator}: ${failed.messages[0]?.message ?? 'failed'}` : null,
    ...summary,
  };
}
