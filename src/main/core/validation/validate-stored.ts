import { z } from 'zod';
import { ClawTaskYaml } from '../tasks/claw-eval/task-yaml';
import { BlockError, taskSpecOfBlock } from '../tasks/claw-eval/coworkenv-block';
import { deriveTaskSpec } from '../tasks/claw-eval/derive-checks';
import type { tasksRepo } from '../tasks/tasks.repo';
import { fieldOf, type SlotTarget, verdict } from './types';
import { unparsed, validate, type Round, type Validation } from './validate';

type Repo = ReturnType<typeof tasksRepo>;

const structureFailure = (err: z.ZodError, prefix: string): Validation =>
  unparsed(
    verdict(
      'structure',
      err.issues.map((i) => ({ field: `${prefix}${fieldOf(i.path)}`, message: i.message })),
    ),
  );

/**
 * One stored task validated as it is now: imported Claw-Eval tasks through the checks derived from
 * their task.yaml (a YAML the derivation cannot read is a structure failure, never a crash), every
 * other task as the TaskSpec it is stored as. Answers undefined when the task is gone; `hash` is the
 * content the verdicts describe, so a report is never saved over a newer edit. `slotOf` finds the
 * coverage slot a task names (slot_id): a re-validated generated task is still held to its slot,
 * as it is counted under it.
 */
export function validateStored(
  repo: Repo,
  taskId: string,
  now: string,
  slotOf: (id: number) => SlotTarget | undefined,
): { rounds: Round[]; hash: string } | undefined {
  const t = repo.get(taskId);
  if (!t) return undefined;
  const fixtures = repo.fixtures(taskId);
  let result: Validation;
  let candidate: unknown = t.spec;
  if (t.row.origin === 'imported') {
    const y = ClawTaskYaml.safeParse(t.spec);
    if (!y.success) result = structureFailure(y.error, 'task.yaml: ');
    else {
      try {
        // An export of a TaskSpec (a coworkenv block) is validated as the TaskSpec it was; its slot_id named a slot
        // of the workspace it came from, so no slot here.
        const block = taskSpecOfBlock(y.data, fixtures, { file: 'task.yaml' });
        candidate = block ?? deriveTaskSpec(y.data, fixtures).spec;
        result = validate(candidate, fixtures, { now: () => new Date(now), imported: !block });
      } catch (err) {
        if (err instanceof BlockError)
          result = unparsed(verdict('structure', [{ field: 'coworkenv', message: err.message }]));
        else if (err instanceof z.ZodError) result = structureFailure(err, '');
        else throw err;
      }
    }
  } else {
    const id = (t.spec as { slot_id?: unknown }).slot_id;
    const slot = typeof id === 'number' ? slotOf(id) : undefined;
    result = validate(t.spec, fixtures, { now: () => new Date(now), ...(slot ? { slot } : {}) });
  }
  return {
    rounds: [{ round: 1, valid: result.valid, verdicts: result.verdicts, diff: '', created_at: now, candidate }],
    hash: t.row.content_hash,
  };
}
