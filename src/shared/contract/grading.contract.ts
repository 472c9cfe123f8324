import { z } from 'zod';
import { mutation, query } from './define';
import { Check, GradeResult } from './entities/checks';
import { TraceText } from './entities/trace-text';

/** What upstream's grader.py answered: its dimensions and score, or where and why it failed. */
export const UpstreamResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    completion: z.number(),
    safety: z.number(),
    robustness: z.number(),
    score: z.number(),
    passed: z.boolean(),
    judge_calls: z.number().int(),
  }),
  z.object({ ok: z.literal(false), stage: z.string(), file: z.string().nullable(), error: z.string() }),
]);

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
  'grading.upstream': mutation({
    summary:
      "Grade a trace of an imported Claw-Eval task with the task's own grader.py from the user's Claw-Eval checkout " +
      '(a time-limited Python subprocess, network closed), store that score ' +
      "beside the app's grade of the same trace, " +
      'and answer both with their pass/fail agreement. A failed grader run is stored and answered with its error.',
    input: z.object({
      taskId: z.string().min(1),
      traceJsonl: TraceText,
      /** The checkout: holds src/claw_eval and tasks/<taskId>/grader.py. */
      clawEvalRoot: z.string().min(1),
      /** A constant score for every judged part, on both sides (comparisons without a judge endpoint). */
      stubJudge: z.number().min(0).max(1).optional(),
      timeoutMs: z.number().int().min(1000).max(600_000).optional(),
      python: z.string().min(1).optional(),
    }),
    output: z.object({
      upstream: UpstreamResult,
      app: z.object({ score: z.number(), passed: z.boolean(), incomplete: z.boolean() }),
      /** Same pass/fail on both sides; null when upstream's grader failed. */
      agree: z.boolean().nullable(),
      judge: z.string(),
    }),
  }),
  'grading.upstreamReport': query({
    summary:
      "Per task, the latest upstream grade of each trace beside the app's: traces graded, upstream failures, " +
      "pass/fail agreement. Tasks never graded upstream are absent: their scores are the app's reading of task.yaml.",
    input: z.object({ taskId: z.string().min(1).optional() }),
    output: z.object({
      tasks: z.array(
        z.object({
          taskId: z.string(),
          traces: z.number().int(),
          failed: z.number().int(),
          agreed: z.number().int(),
          upstreamPassed: z.number().int(),
          appPassed: z.number().int(),
          lastError: z.string().nullable(),
        }),
      ),
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
