import { z } from 'zod';
import { query } from './define';
import { GradeResult } from './entities/checks';
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
} as const;
