import { z } from 'zod';
import { mutation, query } from './define';
import { Check, GradeResult } from './entities/checks';
import { TraceText } from './entities/trace-text';

export const gradingContract = {
  'grading.gradeTrace': query({
    summary:
      "Grade an external Claw-Eval trace (JSONL text) against a stored task's checks with the shared grader: score, " +
      'completion / safety / robustness, each check with its evidence. Imported tasks are graded on checks derived ' +
      'from their task.yaml (checksOrigin says so).',
    input: z.object({
      taskId: z.string().min(1),
      traceJsonl: TraceText,
    }),
    output: z.object({
      grade: GradeResult,
      /** The task_id the trace's trace_start names (a warning says so when it is not taskId). */
      taskIdInTrace: z.string(),
      warnings: z.array(z.string()),
    }),
  }),
  'grading.updateCheck': mutation({
    summary:
      "Replace one check (by its id) of a generated or hand-written task, saved as the task's next version and " +
      'validated at once, then re-grade every graded trajectory of the task with the new checks (no re-run: the ' +
      "grader reads the stored calls and audits); the trajectories' score columns change with their grades. " +
      'Imported Claw-Eval tasks are refused: their checks are derived from task.yaml.',
    input: z.object({
      taskId: z.string().min(1),
      check: Check,
      /** The version the edit was made on; another writer's newer version makes it a CONFLICT. */
      expectedVersion: z.number().int().min(1).optional(),
    }),
    output: z.object({
      version: z.number().int(),
      validation: z.enum(['valid', 'invalid']),
      /** The first failing validator's message (weights that no longer sum to 1…), when invalid. */
      problem: z.string().nullable(),
      regraded: z.number().int(),
      /** Of the re-graded, how many got another score. */
      changed: z.number().int(),
      meanBefore: z.number().nullable(),
      meanAfter: z.number().nullable(),
    }),
  }),
} as const;
