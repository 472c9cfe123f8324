import { z } from 'zod';
import { job, query } from './define';
import { TaskSpec } from './entities/task-spec';

/** The validators of DESIGN.md §6, in the order they run. */
export const VALIDATORS = [
  'structure',
  'services_records',
  'weights',
  'tool_constraints',
  'leakage',
  'grading_consistency',
  'solvability',
  'slot_conformance',
] as const;
export const ValidatorName = z.enum(VALIDATORS);

export const Verdict = z.object({
  validator: ValidatorName,
  status: z.enum(['pass', 'fail', 'not_applicable']),
  /** Each problem names the field it is about (a JSON path into the TaskSpec, e.g. checks.2.weight). */
  messages: z.array(z.object({ field: z.string(), message: z.string() })),
});
export type Verdict = z.infer<typeof Verdict>;

export const ValidationRound = z.object({
  /** The task version this round validated (rounds of earlier versions are kept as history). */
  version: z.number().int(),
  round: z.number().int(),
  valid: z.boolean(),
  verdicts: z.array(Verdict),
  /** Unified diff of the TaskSpec JSON against the previous round (empty for round 1). */
  diff: z.string(),
  created_at: z.string(),
});
export type ValidationRound = z.infer<typeof ValidationRound>;

export const ValidationStatus = z.enum(['valid', 'invalid', 'unvalidated']);

export const validationContract = {
  'validation.run': job({
    summary:
      'Validate stored tasks (the given ids, or all) in a worker; each task gets a report and a status in the tasks ' +
      'grid.',
    input: z.object({ taskIds: z.array(z.string().min(1)).max(100_000).optional(), all: z.boolean().default(false) }),
    result: z.object({
      validated: z.number().int(),
      valid: z.number().int(),
      invalid: z.number().int(),
      /** Tasks deleted while the job ran. */
      gone: z.number().int(),
    }),
  }),
  'validation.report': query({
    summary:
      "A task's validation status and every stored round: each validator's verdict, its messages, and the diff " +
      'between rounds.',
    input: z.object({ taskId: z.string().min(1) }),
    output: z.object({ taskId: z.string(), status: ValidationStatus, rounds: z.array(ValidationRound) }),
  }),
  'validation.check': query({
    summary: 'Validate a TaskSpec given inline (records inline in services), without storing it: the verdicts only.',
    input: z.object({ spec: z.unknown() }),
    output: z.object({ valid: z.boolean(), verdicts: z.array(Verdict) }),
  }),
} as const;
export { TaskSpec };
