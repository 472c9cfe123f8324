import { z } from 'zod';
import { job, mutation, query } from './define';

/**
 * Issue 19 item 6 in the app: imported Claw-Eval tasks graded by their own grader.py from the user's checkout, with
 * the user's Python (Settings → Upstream grader), beside the app's reading of task.yaml.
 */

/** What Settings → Upstream grader → Check found, part by part; `missing` names the first piece that is not there. */
export const UpstreamCheck = z.object({
  root: z.string().nullable(),
  python: z.string(),
  /** `python --version`'s answer, null when it did not start. */
  pythonVersion: z.string().nullable(),
  /** claw_eval and its grader dependencies import from <root>/src with that Python. */
  clawEvalImports: z.boolean(),
  /** Imported tasks of the workspace and which of them have <root>/tasks/<id>/grader.py. */
  importedTasks: z.number().int(),
  withGrader: z.array(z.string()),
  withoutGrader: z.array(z.string()),
  usable: z.boolean(),
  /** The exact missing piece, in words (null when usable). */
  missing: z.string().nullable(),
  at: z.string(),
});
export type UpstreamCheck = z.infer<typeof UpstreamCheck>;

const UpstreamSettings = z.object({
  /** The Claw-Eval checkout (holds src/claw_eval and tasks/); null: not set. */
  root: z.string().nullable(),
  /** The Python to run grader.py with ('python3' when not set). */
  python: z.string(),
  /** The last Check of these settings (null: never checked, or the settings changed since). */
  check: UpstreamCheck.nullable(),
  /** Tasks of the workspace imported from Claw-Eval (the ones an upstream grader.py can grade). */
  importedTasks: z.number().int(),
});

/** A trace grader.py could not grade: `error` is "stage (file): the traceback's last line", as stored. */
const TraceError = z.object({ id: z.number().int(), taskId: z.string(), error: z.string() });

export const upstreamContract = {
  'upstream.settings': query({
    summary:
      'Settings → Upstream grader: the Claw-Eval checkout and the Python that grade imported tasks with their own ' +
      "grader.py, and the last Check. Without a usable one, imported Claw-Eval scores are the app's reading of " +
      'task.yaml.',
    input: z.object({}).default({}),
    output: UpstreamSettings,
  }),
  'upstream.setSettings': mutation({
    summary:
      'Set the Claw-Eval checkout folder and the Python (null: unset, python3), then check them at once (as ' +
      'upstream.check) and keep that check.',
    input: z.object({ root: z.string().min(1).nullable(), python: z.string().min(1).nullable() }),
    output: UpstreamSettings,
  }),
  'upstream.check': mutation({
    summary:
      'Check the upstream grader settings: Python found and its version, claw_eval importable from the checkout, ' +
      'which imported tasks have a grader.py there; the first missing piece named. Kept until the settings change.',
    input: z.object({}).default({}),
    output: UpstreamCheck,
  }),
  'upstream.grade': job({
    summary:
      "Grade stored trajectories of imported Claw-Eval tasks with the task's own grader.py (one time-limited Python " +
      "subprocess per trace, network closed but to the judge): each grading is stored beside the app's grade. The " +
      'configured judge is passed through (its key in the environment, never stored); without one, judged parts ' +
      'get the stub score when given, else grader.py runs without a judge. A failure is stored with its file and ' +
      'reason, never as 0.',
    input: z.object({
      ids: z.array(z.number().int()).min(1).max(100_000),
      /** Seconds each trace may take. */
      timeoutSeconds: z.number().int().min(1).max(600).default(60),
      /** A constant score for every judged part instead of the judge endpoint (comparisons, tests). */
      stubJudge: z.number().min(0).max(1).optional(),
    }),
    result: z.object({
      graded: z.number().int(),
      agreed: z.number().int(),
      disagreed: z.number().int(),
      /** Upstream agreed to grade but the app's grade waits for a judge: no pass/fail to compare. */
      appPending: z.number().int(),
      failed: z.number().int(),
      /** The failures, first 200, each with the file and the reason. */
      errors: z.array(TraceError),
      judge: z.string(),
    }),
  }),
  'upstream.agreement': query({
    summary:
      "Per task, over its trajectories graded upstream (their latest grading): how many agree with the app's " +
      "current pass/fail, how many disagree, how many failed upstream, how many wait for the app's judge. The same " +
      'expression as the grid\'s "Agrees with upstream" column.',
    input: z.object({ taskId: z.string().min(1).optional() }).default({}),
    output: z.object({
      tasks: z.array(
        z.object({
          taskId: z.string(),
          graded: z.number().int(),
          agree: z.number().int(),
          disagree: z.number().int(),
          failed: z.number().int(),
          appPending: z.number().int(),
        }),
      ),
    }),
  }),
} as const;
