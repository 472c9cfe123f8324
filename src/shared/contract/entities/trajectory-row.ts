import { z } from 'zod';
import { SourceFormat } from './trajectory';

const int = z.number().int();

/**
 * A stored trajectory's grid row: the indexed columns of `trajectories` (migration 0009; every column
 * is explained in src/main/core/trajectories/README.md). Scores (completion … checks_origin) are our
 * shared grader's; source_reward / source_success are the source's own, kept beside them.
 */
export const TrajectoryRow = z.object({
  id: int,
  run_id: int.nullable(),
  task_id: z.string(),
  trial: int,
  collection: z.string(),
  /** The label shown everywhere: a model name, "reference agent", or what the import was told. */
  agent: z.string(),
  /** The model id; '' when there is none or the source does not say. */
  model: z.string(),
  source: z.enum(['import', 'run']),
  source_format: SourceFormat,
  source_task_id: z.string(),
  /**
   * The benchmark and domain of a τ-bench / τ²-bench record (`tau-bench/airline`, `tau2/retail`): their
   * task ids are per domain, so its task is `<task_source>/<source_task_id>` unless the import named one.
   * Null for sources whose task ids are the workspace's.
   */
  task_source: z.string().nullable(),
  source_reward: z.number().nullable(),
  /** The source's own completion (scores.completion), when it gives one. */
  source_completion: z.number().nullable(),
  source_success: z.boolean().nullable(),
  trace_id: z.string(),
  /** True when the task was not in the workspace at import: kept with the source's own rewards, not graded. */
  external: z.boolean(),
  /** False for infrastructure errors and traces without a grading (the source's own notion). */
  valid: z.boolean(),
  superseded: z.boolean(),
  superseded_by: z.string().nullable(),
  include_override: z.enum(['include', 'exclude']).nullable(),
  /** Its task's curation bucket (curation_tasks, read by task id); null until the task is assigned one. */
  bucket: z.string().nullable(),
  message_count: int,
  tool_call_count: int,
  char_count: int,
  tokens: int.nullable(),
  duration_ms: int.nullable(),
  error: z.string().nullable(),
  completion: z.number().nullable(),
  safety: z.number().nullable(),
  robustness: z.number().nullable(),
  score: z.number().nullable(),
  passed: z.boolean().nullable(),
  /** False when our grader did not grade it (external task, or the source lacks what the grader needs). */
  graded: z.boolean(),
  checks_origin: z.enum(['authored', 'derived_from_task_yaml']).nullable(),
  /**
   * Issue 18 item 3 (migration 0018). source_reward / source_success are the score of record; score / passed the
   * app's grade. disagrees: both known and they differ (null: either unknown). judge_pending: the app's grade has
   * checks awaiting an LLM judge (its score, completion and pass are then null, never 0). score_basis: which of the
   * two the row's collection counts with (curation, reports, exports).
   */
  disagrees: z.boolean().nullable().default(null),
  judge_pending: z.boolean().default(false),
  score_basis: z.enum(['recorded', 'app']).default('recorded'),
  /**
   * Issue 19 item 6 (migration 0031): the latest grading by the task's own grader.py (Trajectories → Grade with
   * upstream grader.py). Score and pass null when never graded upstream or when grader.py failed (upstream_error says
   * why: "stage (file): reason", never a 0). upstream_agrees: its pass/fail equals the app's current one (null when
   * either is unknown).
   */
  upstream_score: z.number().nullable().default(null),
  upstream_passed: z.boolean().nullable().default(null),
  upstream_agrees: z.boolean().nullable().default(null),
  upstream_error: z.string().nullable().default(null),
  /** How many warnings the import kept with it (reader and grader: trajectories.get gives their text). */
  warnings: int,
  created_at: z.string(),
});
export type TrajectoryRow = z.infer<typeof TrajectoryRow>;

/** The grid's sortable and filterable fields (the heavy ones scan; see TRAJECTORY_COLUMNS for which are indexed). */
export const TrajectorySortField = z.enum([
  'id',
  'run_id',
  'task_id',
  'trial',
  'collection',
  'agent',
  'model',
  'source',
  'source_format',
  'source_task_id',
  'task_source',
  'source_reward',
  'source_completion',
  'source_success',
  'external',
  'valid',
  'superseded',
  'superseded_by',
  'include_override',
  'bucket',
  'message_count',
  'tool_call_count',
  'char_count',
  'tokens',
  'duration_ms',
  'error',
  'completion',
  'safety',
  'robustness',
  'score',
  'passed',
  'graded',
  'disagrees',
  'judge_pending',
  'score_basis',
  'upstream_score',
  'upstream_passed',
  'upstream_agrees',
  'upstream_error',
  'warnings',
  'created_at',
]);

/** The formats `trajectories.import` reads; `auto` tells them apart by their first record. */
export const ImportFormat = z.enum(['auto', 'claw-eval', 'tau-bench', 'tau2', 'openai-jsonl', 'sharegpt']);
export type ImportFormat = z.infer<typeof ImportFormat>;

/** One problem of an import: a refused record (or file) with the file and 1-based line it starts on. */
export const ImportIssue = z.object({
  file: z.string().nullable(),
  line: int.nullable(),
  /** 0-based index of the record in its file (JSONL line with content, array element); null for file-level issues. */
  record: int.nullable(),
  message: z.string(),
});
export type ImportIssue = z.infer<typeof ImportIssue>;

export const ImportFileOutcome = z.object({
  path: z.string(),
  /** The file's format as told (named or sniffed); null when it could not be told. */
  format: ImportFormat.exclude(['auto']).nullable(),
  collection: z.string(),
  records: int,
  stored: int,
  duplicates: int,
  refused: int,
  /** Of the stored: records kept with warnings. */
  warned: int,
  /** Why the file could not be read at all (missing, unknown format, changed since the import started). */
  error: z.string().nullable(),
});

/** What a finished import left, counted from the workspace (a resumed import counts its earlier batches too). */
export const ImportResult = z.object({
  runId: int,
  records: int,
  stored: int,
  duplicates: int,
  /** Records (or whole files) refused; each has an issue. */
  refused: int,
  /** Of the stored: tasks the workspace does not know (kept with their own rewards). */
  external: int,
  /** Of the stored: graded by the shared grader. */
  graded: int,
  /** Of the stored: records kept with warnings (the grid's Warnings column filters them). */
  warned: int,
  /** Trajectories of earlier collections this import superseded, and of its own that were superseded. */
  superseded: int,
  files: z.array(ImportFileOutcome),
  /** The first issues; trajectories.importIssues pages through all of them. */
  issues: z.array(ImportIssue),
  /** The true number of issues. */
  issueCount: int,
  /** The tools file given (`--tools`), applied to records without schemas of their own; null when none. */
  toolSchemas: z.object({ file: z.string(), sha256: z.string(), tools: int }).nullable().default(null),
});
export type ImportResult = z.infer<typeof ImportResult>;
