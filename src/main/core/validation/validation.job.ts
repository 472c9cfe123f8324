import type { JobDefinition } from '../jobs/job-definition';
import type { JobResult } from '../jobs/job-types';
import { slotsRepo } from '../plan/slots.repo';
import { tasksRepo } from '../tasks/tasks.repo';
import { validateStored } from './validate-stored';
import { validationWriter } from './validation.repo';

declare module '../jobs/job-types' {
  interface JobInputs {
    'validation.run': ValidationJobInput;
  }
}

/** The ids are resolved when the job starts (validation.run's handler), so a resumed job validates the same list. */
export type ValidationJobInput = { taskIds: string[]; batchSize: number };

export const validationJob: JobDefinition<ValidationJobInput, JobResult<'validation.run'>> = {
  total: (input) => input.taskIds.length,
  run(ctx, input) {
    const tasks = tasksRepo(ctx.db);
    const slots = slotsRepo(ctx.db);
    const slotOf = (id: number) => slots.get(id);
    const total = input.taskIds.length;
    for (let from = ctx.resumeFrom; from < total; from += input.batchSize) {
      const to = Math.min(total, from + input.batchSize);
      // Validation reads and runs environments outside the write transaction; only the reports are written in it.
      const results = input.taskIds.slice(from, to).map((id) => {
        try {
          return { id, r: validateStored(tasks, id, ctx.now(), slotOf) };
        } catch (err) {
          // Validators answer verdicts for bad input; a throw is a bug, reported with the task that hit it.
          throw new Error(`validating ${id}: ${(err as Error).message}`);
        }
      });
      const invalid = results.filter((x) => x.r && !x.r.rounds.at(-1)!.valid).length;
      ctx.commitBatch(
        (db) => {
          const reports = validationWriter(db);
          for (const { id, r } of results) if (r) reports.save(id, r.rounds, r.hash);
        },
        to,
        `${to} of ${total} tasks validated (${invalid} invalid in the last batch)`,
        ['tasks', 'validation_reports'],
      );
    }
    // Counted from the workspace: a resumed job did not see the batches committed before.
    const status = tasks.statuses(input.taskIds);
    const valid = input.taskIds.filter((id) => status.get(id) === 'valid').length;
    const gone = input.taskIds.filter((id) => !status.has(id)).length;
    return { validated: input.taskIds.length - gone, valid, invalid: input.taskIds.length - gone - valid, gone };
  },
};
