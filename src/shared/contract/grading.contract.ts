import { z } from 'zod';
import { job, mutation, query } from './define';
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

export const ScoreBasis = z.enum(['recorded', 'app']);

const JudgeSettings = z.object({
  endpoint: z.string().nullable(),
  /** The endpoint's model (null: no endpoint, or it was removed since it was chosen). */
  model: z.string().nullable(),
  /** The chosen endpoint no longer exists: checks stay pending until another is chosen. */
  missing: z.boolean(),
  /** Answers in the judge cache for this model. */
  cached: z.number().int(),
});

const CollectionScores = z.object({
  collection: z.string(),
  basis: ScoreBasis,
  trajectories: z.number().int(),
  /** Rows with a score of record / with an app grade (judge-pending ones not counted). */
  recorded: z.number().int(),
  graded: z.number().int(),
  disagreements: z.number().int(),
  /** Rows whose app grade waits for a judge. */
  judgePending: z.number().int(),
});

const BasisChange = z.object({
  id: z.number().int(),
  collection: z.string(),
  before: ScoreBasis,
  after: ScoreBasis,
  who: z.string(),
  at: z.string(),
  reason: z.string(),
});

const Disagreement = z.object({
  id: z.number().int(),
  collection: z.string(),
  task_id: z.string(),
  trial: z.number().int(),
  recorded_score: z.number().nullable(),
  recorded_completion: z.number().nullable(),
  recorded_passed: z.boolean().nullable(),
  app_score: z.number().nullable(),
  app_completion: z.number().nullable(),
  app_passed: z.boolean().nullable(),
});

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
  'grading.judgeSettings': query({
    summary:
      'The judge endpoint llm_judge checks are graded with (Settings → Judge), its model and how many answers its ' +
      'cache holds; endpoint null: none, those checks are "judge pending".',
    input: z.object({}).default({}),
    output: JudgeSettings,
  }),
  'grading.setJudge': mutation({
    summary:
      'Choose the judge endpoint (a configured endpoint, by name) or none. Grades change only when re-graded ' +
      '(grading.regrade).',
    input: z.object({ endpoint: z.string().min(1).nullable() }),
    output: JudgeSettings,
  }),
  'grading.regrade': mutation({
    summary:
      "Re-grade the stored trajectories of a task or a collection with the shared grader. Only the app's grade " +
      'changes, never the score of record. With a judge endpoint, llm_judge checks not yet in its cache are asked ' +
      'first (cached by the hash of model and prompt: a second re-grade calls nothing); without one they are ' +
      '"judge pending" — excluded from completion and pass rates, never 0.',
    input: z
      .object({
        taskId: z.string().min(1).optional(),
        collection: z.string().min(1).optional(),
        /** false: grade from the cache only, ask the judge nothing. */
        judge: z.boolean().default(true),
      })
      .refine((i) => (i.taskId === undefined) !== (i.collection === undefined), 'give taskId or collection'),
    output: z.object({
      regraded: z.number().int(),
      changed: z.number().int(),
      /** Trajectories whose app grade is still judge pending. */
      pending: z.number().int(),
      judge: z.object({
        endpoint: z.string().nullable(),
        asked: z.number().int(),
        cached: z.number().int(),
        failed: z.array(z.object({ key: z.string(), problem: z.string() })),
      }),
    }),
  }),
  'grading.regradeJob': job({
    summary:
      "grading.regrade as a job (the app's Trajectories → Re-grade…): the stored trajectories of a task, a " +
      "collection or a list of ids (the ticked rows, or every row under the grid's filter) graded again off the " +
      'request thread, a batch at a time, with progress (graded, judge asked / cached / failed, still pending). ' +
      "Cancel keeps the batches stored; a re-run asks the judge nothing already cached. Only the app's grade " +
      'changes, never the score of record; a judge that fails leaves its checks pending with the reason.',
    input: z
      .object({
        ids: z.array(z.number().int()).min(1).max(1_000_000).optional(),
        taskId: z.string().min(1).optional(),
        collection: z.string().min(1).optional(),
        /** false: grade from the cache only, ask the judge nothing. */
        judge: z.boolean().default(true),
        /** Trajectories per commit (a judge pre-pass, then one write): what a cancel may lose of judge work. */
        batchSize: z.number().int().min(1).max(1000).default(25),
      })
      .refine(
        (i) => [i.ids, i.taskId, i.collection].filter((x) => x !== undefined).length === 1,
        'give exactly one of ids, taskId or collection',
      ),
    result: z.object({
      /** Trajectories graded again (ungraded ones — external, or deleted since the start — are skipped). */
      regraded: z.number().int(),
      skipped: z.number().int(),
      /** Of the re-graded, how many got another app score (this run of the job: a resume counts its part). */
      changed: z.number().int(),
      /** Re-graded trajectories whose app grade still waits for a judge. */
      pending: z.number().int(),
      /** Re-graded trajectories whose app grade now disagrees with their score of record. */
      disagreements: z.number().int(),
      judge: z.object({
        endpoint: z.string().nullable(),
        asked: z.number().int(),
        cached: z.number().int(),
        failed: z.number().int(),
        /** The first failures (key and reason, keys of the endpoint never quoted). */
        problems: z.array(z.object({ key: z.string(), problem: z.string() })),
      }),
    }),
  }),
  'grading.scoreBasis': query({
    summary:
      "Per collection: which score curation, reports and exports use (the score of record or the app's grade), how " +
      'many trajectories the two disagree on, how many are judge pending, and the log of basis changes.',
    input: z.object({ collection: z.string().min(1).optional() }),
    output: z.object({ collections: z.array(CollectionScores), log: z.array(BasisChange) }),
  }),
  'grading.setScoreBasis': mutation({
    summary:
      "Choose a collection's score basis: 'recorded' (what the source or the run recorded) or 'app' (the app's " +
      'current grade). Logged with who, when and why; curation statistics follow before the commit.',
    input: z.object({ collection: z.string().min(1), basis: ScoreBasis, reason: z.string().min(1) }),
    output: z.object({ before: ScoreBasis, after: ScoreBasis, tasks: z.number().int() }),
  }),
  'grading.disagreements': query({
    summary:
      'Trajectories whose score of record and app grade disagree (pass/fail differs or |Δ score| > 1e-6), by id.',
    input: z.object({
      collection: z.string().min(1).optional(),
      limit: z.number().int().min(1).max(10000).default(500),
    }),
    output: z.object({ total: z.number().int(), rows: z.array(Disagreement) }),
  }),
} as const;
