import { z } from 'zod';
import { job, query } from './define';
import { gridFilterInput } from './entities/grid-query';
import { RunReport, RunResult, RunRow } from './entities/run';
import { TaskSortField } from './entities/task';

export { RunReport, RunResult, RunRow };

const CollectionName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\s/\\][^/\\]*$/, 'a collection name has no slashes and does not start with a space');

const Rate = z.number().min(0).max(1);

/** The agent under test: the reference agent (replays reference plans) or a configured endpoint. */
export const RunAgent = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('reference'),
      /** Seeds the perturbations: the same (task, trial, seed) replays the same calls. */
      seed: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31)
        .default(0),
      /**
       * The same rates for every task — per step: skip_step, wrong_argument; per trajectory:
       * prohibited_call. Left out: the default mix (src/main/core/agents/perturb-mix.ts), each task
       * steady, flaky or failing by its seed, so a run gives every bucket and reward spread.
       */
      perturbations: z
        .object({ skip_step: Rate.default(0), wrong_argument: Rate.default(0), prohibited_call: Rate.default(0) })
        .optional(),
      /** Plain replays: every step as planned (every task solved), no perturbation. */
      clean: z.boolean().default(false),
    })
    .refine((a) => !(a.clean && a.perturbations), {
      message: 'a clean run takes no perturbation rates',
      path: ['clean'],
    }),
  z.object({
    kind: z.literal('endpoint'),
    endpoint: z.string().min(1).max(200),
    /** Claw-Eval calls the agent at temperature 0. */
    temperature: z.number().min(0).max(2).default(0),
    maxTokens: z.number().int().min(1).max(1_000_000).optional(),
  }),
]);
export type RunAgent = z.infer<typeof RunAgent>;

/** Who answers the agent's tool-free turns on multi-turn tasks. */
export const RunUser = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('scripted') }),
  z.object({ kind: z.literal('endpoint'), endpoint: z.string().min(1).max(200) }),
]);

export const runsContract = {
  'runs.start': job({
    summary:
      'Run an agent (the reference agent or a configured endpoint) on tasks (by ids, all, and/or a tasks-grid ' +
      'filter) for k trials each, with a concurrency limit: each trajectory runs in a fresh in-process ' +
      'environment, is graded with the shared grader and stored as it finishes (a run row and its collection). ' +
      'Model calls retry with backoff on 429/5xx/transport errors; cancel stops at once; a resumed run skips ' +
      'the task × trial pairs already stored and re-runs the ones that errored.',
    input: z.object({
      tasks: z.union([z.literal('all'), z.array(z.string().min(1)).min(1).max(100_000)]).default('all'),
      /** A tasks-grid filter (tasks.list's filters and quick search), applied to `tasks`. */
      where: gridFilterInput(TaskSortField).optional(),
      agent: RunAgent,
      user: RunUser.default({ kind: 'scripted' }),
      trials: z.number().int().min(1).max(1000).default(3),
      concurrency: z.number().int().min(1).max(64).default(4),
      /** Where the trajectories go; default: a new collection named after the agent and the start time. */
      collection: CollectionName.optional(),
      name: z.string().min(1).max(200).optional(),
      /** Attempts per model call (the first included) on 429/5xx/transport errors and timeouts. */
      maxAttempts: z.number().int().min(1).max(20).default(4),
    }),
    result: RunResult,
  }),
  'runs.list': query({
    summary:
      'Runs and imports, newest first: agent label, collection, trials, state (the job’s when it ended without ' +
      'saying), counts, pass rate and mean score of the stored trajectories.',
    input: z
      .object({
        kind: z.enum(['all', 'run', 'import']).default('all'),
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(1000).default(100),
      })
      .default({ kind: 'all', offset: 0, limit: 100 }),
    output: z.object({ rows: z.array(RunRow), total: z.number().int() }),
  }),
  'runs.get': query({
    summary: 'One run or import by id, as runs.list shows it.',
    input: z.object({ id: z.number().int() }),
    output: RunRow,
  }),
  'runs.report': query({
    summary:
      'Evaluation report of a run or a collection: per task mean score, Pass@k (unbiased), Pass^k (all k trials' +
      ' pass at ≥ 0.75; missing and errored trials count as failures), completion, safety; Claw-Eval’s ' +
      'leaderboard aggregation (trials padded with 0 to k) overall, per split and per category; score ' +
      'histograms.',
    input: z
      .object({
        runId: z.number().int().optional(),
        collection: z.string().min(1).optional(),
        /** Default: the run’s trials; for a collection, the most trials any of its tasks has. */
        k: z.number().int().min(1).max(100).optional(),
        /** Histogram bins over [0, 1]. */
        bins: z.number().int().min(1).max(100).default(10),
      })
      .refine((i) => (i.runId === undefined) !== (i.collection === undefined), {
        message: 'give exactly one of runId and collection',
      }),
    output: RunReport,
  }),
} as const;
