import { z } from 'zod';
import { bulkWhere, gridFilterInput } from './grid-query';
import { TrajectorySortField } from './trajectory-row';

const int = z.number().int();

export const CurationBucket = z.enum(['KEEP', 'TRIVIAL', 'UNSOLVABLE']);
export type CurationBucket = z.infer<typeof CurationBucket>;

/** Bucket thresholds of one pool (the SFT export's pool names); defaults in src/main/core/curation/README.md. */
export const CurationRule = z.object({
  pool: z.string().min(1).max(100),
  /** UNSOLVABLE when the task's mean completion (the paper's grouping value) is below this. */
  unsolvableBelow: z.number().min(0).max(1),
  /** TRIVIAL when the task's mean completion is at least this… */
  trivialMin: z.number().min(0).max(1),
  /** …and, when on (off by default: the paper groups by the mean alone), every attempt with a known outcome passed. */
  trivialAllPass: z.boolean(),
  /** Fewer attempts with a usable value: no suggestion (the task is "unscored"). */
  minAttempts: int.min(1).max(1000),
  /** k of the Pass@k and Pass^k columns. */
  passK: int.min(1).max(20),
  updatedAt: z.string(),
});
export type CurationRule = z.infer<typeof CurationRule>;

/**
 * One task of the curation grid: statistics over its attempts (valid, not superseded trajectories)
 * and its buckets. mean_completion is a mean of fractional values (completion, else the source's
 * completion, else its reward), not a success rate.
 */
export const CurationTaskRow = z.object({
  task_id: z.string(),
  name: z.string().nullable(),
  category: z.string().nullable(),
  language: z.string().nullable(),
  difficulty: z.string().nullable(),
  services: z.array(z.string()),
  /** Not a workspace task (trajectories imported with their own rewards). */
  external: z.boolean(),
  /** What qualifies the task id (before its last '/'): `tau-bench/airline`, `tau2/retail`; null for workspace ids. */
  task_source: z.string().nullable(),
  pool: z.string(),
  attempts: int,
  scored: int,
  mean_completion: z.number().nullable(),
  variance: z.number().nullable(),
  min_completion: z.number().nullable(),
  best_completion: z.number().nullable(),
  best_trajectory: int.nullable(),
  best_trial: int.nullable(),
  mean_score: z.number().nullable(),
  passes: int,
  pass_known: int,
  pass_at_k: z.number().nullable(),
  pass_hat_k: z.number().nullable(),
  suggested: CurationBucket.nullable(),
  bucket: CurationBucket.nullable(),
  stats_at: z.string(),
});
export type CurationTaskRow = z.infer<typeof CurationTaskRow>;

export const CurationField = z.enum([
  'task_id',
  'name',
  'category',
  'language',
  'difficulty',
  'services',
  'external',
  'task_source',
  'pool',
  'attempts',
  'scored',
  'mean_completion',
  'variance',
  'min_completion',
  'best_completion',
  'best_trial',
  'mean_score',
  'passes',
  'pass_at_k',
  'pass_hat_k',
  'suggested',
  'bucket',
]);
export type CurationField = z.infer<typeof CurationField>;

export const CurationWhere = gridFilterInput(CurationField);
export type CurationWhere = z.infer<typeof CurationWhere>;

/** Which tasks a bulk action acts on: grid selection (ids), a filter as the grid sends it, or every task. */
export const TaskSelection = z.union([
  z.object({ tasks: z.array(z.string().min(1)).min(1).max(1_000_000) }),
  z.object({
    where: bulkWhere(CurationField, 'to act on every task say so with {"all": true} (the CLI\'s --all)'),
  }),
  z.object({ all: z.literal(true) }),
]);
export type TaskSelection = z.infer<typeof TaskSelection>;

/** Which trajectories an include/exclude override acts on: ids, or a trajectories-grid filter. */
export const TrajectorySelection = z.union([
  z.object({ trajectories: z.array(int).min(1).max(1_000_000) }),
  z.object({ where: bulkWhere(TrajectorySortField, 'name the trajectories by id, or filter them') }),
]);
export type TrajectorySelection = z.infer<typeof TrajectorySelection>;

export const Reason = z.string().trim().min(1, 'a reason is required').max(2000);

export const BatchKind = z.enum(['assign', 'suggest', 'override', 'pool', 'rules', 'undo', 'redo']);
export const BatchTarget = z.enum(['bucket', 'pool', 'override', 'rules']);

/** One logged bulk action. */
export const CurationBatch = z.object({
  id: int,
  kind: BatchKind,
  target: BatchTarget,
  value: z.string().nullable(),
  who: z.string(),
  at: z.string(),
  reason: z.string(),
  selection: z.unknown(),
  changed: int,
  of_batch: int.nullable(),
  undone_by: int.nullable(),
});
export type CurationBatch = z.infer<typeof CurationBatch>;

export const LogField = z.enum(['id', 'kind', 'target', 'value', 'who', 'at', 'reason', 'changed', 'of_batch']);

export const CurationChange = z.object({
  item: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});

export const BatchResult = z.object({
  /** null when nothing changed (no batch is logged then). */
  batchId: int.nullable(),
  changed: int,
  /** Undo/redo: items changed by a later batch since, left as they are. */
  conflicts: int.default(0),
});
export type BatchResult = z.infer<typeof BatchResult>;
