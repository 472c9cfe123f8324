import { z } from 'zod';
import { ManifestRewards, ManifestSchemaSource, ManifestScoreBasis } from './export-provenance';

/**
 * SFT export shapes (reference/formats.md §3, §6): the per-record metadata the exporter selects on,
 * the options, the rejection reasons in accounting order, the report the UI shows before exporting,
 * and the manifest every export writes. The trajectories themselves are the canonical Trajectory.
 */

/**
 * The trainers we write for: TRL messages (§3.1), OpenAI fine-tuning (§3.2), LLaMA-Factory sharegpt (§3.3), verl SFT
 * parquet (§3.4).
 */
export const SftDialect = z.enum(['trl', 'openai', 'llamafactory', 'verl']);
export type SftDialect = z.infer<typeof SftDialect>;

export const SftBucket = z.enum(['KEEP', 'TRIVIAL', 'UNSOLVABLE']);
export type SftBucket = z.infer<typeof SftBucket>;
/** Buckets the exporter may admit; UNBUCKETED stands for a record whose task has no bucket yet. */
export const AdmittableBucket = z.enum(['KEEP', 'TRIVIAL', 'UNSOLVABLE', 'UNBUCKETED']);
export type AdmittableBucket = z.infer<typeof AdmittableBucket>;

const Id = z.union([z.string(), z.number()]);
/**
 * Where a record came from, carried into the manifest as given: slot → task version → run → trajectory → bucket
 * decision.
 */
export const SftLineage = z.looseObject({
  slotId: Id.nullable().optional(),
  taskVersion: Id.nullable().optional(),
  runId: Id.nullable().optional(),
  trajectoryId: Id.nullable().optional(),
  bucketDecision: z.unknown().optional(),
  /** The id the source gave the task, and what qualifies it (benchmark/domain) when the task key includes it. */
  sourceTaskId: z.string().nullable().optional(),
  taskSource: z.string().nullable().optional(),
  /** Which score selection read (the collection's basis, trajectories/score-basis.ts); absent outside a workspace. */
  scoreBasis: z.enum(['recorded', 'app']).nullable().optional(),
  /** The recorded score and the app's grade disagree (null: either is unknown). */
  disagrees: z.boolean().nullable().optional(),
});
export type SftLineage = z.infer<typeof SftLineage>;

/** What the exporter knows of a record besides its trajectory (the lead fills it from the workspace). */
export const SftRecordMeta = z.object({
  /** Unique per record; the key of rejections, lint findings, manifest entries and manifest diffs. */
  recordId: z.string().min(1),
  /** Task name: the dedup key with `trial` (§6.4) and the default source of the task prefix. */
  taskId: z.string().min(1),
  trial: z.number().int().nullable().default(null),
  collectionId: z.string().nullable().default(null),
  /**
   * The attempts this record is one of (§6.4's lineage: one agent and model's run in a collection): the dedup
   * by (taskId, trial) never crosses attempt sets. null: the collection is the attempt set.
   */
  attemptSet: z.string().nullable().default(null),
  /** Collections this record's collection replaces (§6.4); the same list on every record of a collection. */
  supersedesCollections: z.array(z.string()).default([]),
  /** The scalar reward / task score compared with the pool threshold (§6.1). */
  reward: z.number().nullable(),
  /** Its score awaits an LLM judge (null reward, not 0): never exported, rejected as judge_pending. */
  judgePending: z.boolean().default(false),
  completion: z.number().nullable().default(null),
  pool: z.string().default('mixed'),
  bucket: SftBucket.nullable().default(null),
  /** Curation's per-trajectory override: include admits it whatever its bucket, exclude leaves it out. */
  includeOverride: z.enum(['include', 'exclude']).nullable().default(null),
  /** Normalised task prefix for the TRIVIAL rule; null → derived from taskId with options.trivialPrefixPattern. */
  taskPrefix: z.string().nullable().default(null),
  /** False for invalid rollouts (infrastructure error, grader crash): never exported. */
  valid: z.boolean().default(true),
  lineage: SftLineage.default({}),
});
export type SftRecordMeta = z.infer<typeof SftRecordMeta>;

export const SftPoolRule = z.object({
  /** reward ≥ minReward (inclusive); null: no threshold (unscored records pass). */
  minReward: z.number().min(0).max(1).nullable(),
  /** Apply the mixed-pool converter filters (§6.2) and its observation shortening to this pool. */
  converter: z.boolean(),
});
export type SftPoolRule = z.infer<typeof SftPoolRule>;

/** The paper's pools and thresholds (§6.1); editable. */
export const DEFAULT_POOLS: Record<string, SftPoolRule> = {
  mixed: { minReward: 0.5, converter: true },
  multi_service_safety: { minReward: 0.8, converter: false },
  document_extraction: { minReward: 0.999, converter: false },
  clawmark_harbor: { minReward: 0.3, converter: false },
};

export const SftConverterRules = z.object({
  minMessages: z.number().int().min(0).default(5),
  maxToolCalls: z.number().int().min(0).default(20),
  maxChars: z.number().int().min(0).default(40_000),
  observationChars: z.number().int().min(1).default(1_000),
});
export type SftConverterRules = z.infer<typeof SftConverterRules>;

/**
 * Reasoning export policy (§1.3): dropped by default; a template key (TRL, verl) or thought markers (LLaMA-Factory).
 */
export const SftReasoning = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('drop') }),
  z.object({ mode: z.literal('key'), key: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/) }),
  z.object({
    mode: z.literal('think'),
    open: z.string().default('<think>\n'),
    close: z.string().default('\n</think>\n\n'),
  }),
]);
export type SftReasoning = z.infer<typeof SftReasoning>;

/**
 * Trailing variant and language suffixes stripped from a task id to get its prefix (§6.3), applied
 * until nothing changes: `refund-flow-v2-zh` → `refund-flow`.
 */
export const DEFAULT_PREFIX_PATTERN = '[-_.](?:v\\d+|var(?:iant)?\\d*|en|zh|ja|ko|de|fr|es|pt|it|ru|zh-cn|en-us)$';

/** The chat templates shipped in resources/chat-templates, each with its model's tokenizer (resources/tokenizers). */
export const ChatTemplateId = z.enum(['qwen2.5', 'qwen3', 'llama3.1']);
export type ChatTemplateId = z.infer<typeof ChatTemplateId>;

/**
 * The length a record may have once rendered: tokens of the template's tokenizer (default: TRL SFTConfig's
 * max_length, 1,024 at v1.9.0; verl's data.max_length is 1,024 too) or characters of the rendered text.
 */
export const LengthBudget = z.object({ unit: z.enum(['tokens', 'chars']), max: z.number().int().min(1) });
export type LengthBudget = z.infer<typeof LengthBudget>;
export const DEFAULT_LENGTH_BUDGET: LengthBudget = { unit: 'tokens', max: 1024 };

const rank = z.number().int().min(0);
/** What rendering every exported record with a chat template found (export/sft/render/render-check.ts). */
export const RenderSummary = z.object({
  template: ChatTemplateId,
  budget: LengthBudget,
  rendered: rank,
  /** Records the template refused, by its reason (Llama 3.1: parallel calls), with the first few ids. */
  failed: rank,
  failures: z.record(z.string(), z.object({ count: rank, examples: z.array(z.string()) })),
  /** Lengths of the rendered records in the budget's unit (null: none rendered). */
  lengths: z.object({ min: rank, median: rank, p95: rank, max: rank }).nullable(),
  overBudget: z.object({ count: rank, examples: z.array(z.string()) }),
});
export type RenderSummary = z.infer<typeof RenderSummary>;

export const SftOptions = z.object({
  admittedBuckets: z.array(AdmittableBucket).default(['KEEP', 'TRIVIAL']),
  /** Merged over DEFAULT_POOLS: naming one pool edits that pool and keeps the paper's others. */
  pools: z
    .record(z.string(), SftPoolRule)
    .default({})
    .transform((p) => ({ ...DEFAULT_POOLS, ...p })),
  converter: SftConverterRules.default(SftConverterRules.parse({})),
  trivialPrefixPattern: z.string().default(DEFAULT_PREFIX_PATTERN),
  reasoning: SftReasoning.default({ mode: 'drop' }),
  /**
   * LLaMA-Factory has no slot for text beside a tool call (§3.3 rule 7): drop it (counted), move it into thought
   * markers, or reject the record.
   */
  textWithToolCall: z.enum(['drop', 'think', 'reject']).default('drop'),
  /** Inline `$defs`/`$ref` in tool schemas; null → the dialect's default (LLaMA-Factory yes, others no). */
  inlineDefs: z.boolean().nullable().default(null),
  /**
   * training: a system prompt recorded in Claw-Eval's form is written as runs write it now (no schema block: the
   * tools block carries the schemas; no rule against tool-call markup); as-recorded keeps it byte for byte.
   */
  systemPrompt: z.enum(['training', 'as-recorded']).default('training'),
  /**
   * Render every exported record with this chat template and count its length (lint warnings, report.render);
   * null: the dialect's default (TRL: Qwen3; the others: Qwen2.5). renderCheck false skips it.
   */
  chatTemplate: ChatTemplateId.nullable().default(null),
  renderCheck: z.boolean().default(true),
  lengthBudget: LengthBudget.default(DEFAULT_LENGTH_BUDGET),
  /** A tool-calling record needs the schema of every tool it calls (§1.7, §2.1.6). */
  requireToolSchemas: z.boolean().default(true),
  /**
   * TRL `tools` column: a list (needs datasets ≥ 4.7 `use_json`) or one JSON string per row (older datasets, trl PR
   * #5118).
   */
  trlTools: z.enum(['list', 'json-string']).default('list'),
  /** LLaMA-Factory dataset name (the dataset_info.json key and the JSONL file name). */
  datasetName: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/)
    .default('coworkenv_sft'),
  overwrite: z.boolean().default(false),
});
export type SftOptions = z.infer<typeof SftOptions>;
export type SftOptionsInput = z.input<typeof SftOptions>;

/** The §6.5 steps, in order. */
export const SftStep = z.enum(['supersession_dedup', 'buckets', 'threshold', 'converter', 'trivial_prefix', 'dialect']);
export type SftStep = z.infer<typeof SftStep>;

/** Every reason a record is not exported, in accounting order; each rejected record has exactly one. */
export const RejectionReason = z.enum([
  'superseded',
  'duplicate',
  'unsolvable',
  'excluded_by_curation',
  'bucket_not_admitted',
  'unbucketed',
  'invalid_rollout',
  'unknown_pool',
  // The score of record is the app's grade and a check of it awaits an LLM judge: unknown, neither pass nor fail.
  'judge_pending',
  'reward_missing',
  'below_threshold',
  'no_usable_interaction',
  'too_short',
  'too_many_tool_calls',
  'over_char_budget',
  'trivial_prefix_taken',
  'malformed_trajectory',
  // The redacted text re-grades otherwise than the stored grade (a leaked key redacted away): never trained on.
  'redaction_changed_grade',
  'missing_tool_schemas',
  'unknown_tool',
  'unparseable_arguments',
  'not_expressible',
  'lint_failed',
]);
export type RejectionReason = z.infer<typeof RejectionReason>;

export const STEP_OF_REASON: Record<RejectionReason, SftStep> = {
  superseded: 'supersession_dedup',
  duplicate: 'supersession_dedup',
  unsolvable: 'buckets',
  excluded_by_curation: 'buckets',
  bucket_not_admitted: 'buckets',
  unbucketed: 'buckets',
  invalid_rollout: 'threshold',
  judge_pending: 'threshold',
  unknown_pool: 'threshold',
  reward_missing: 'threshold',
  below_threshold: 'threshold',
  no_usable_interaction: 'converter',
  too_short: 'converter',
  too_many_tool_calls: 'converter',
  over_char_budget: 'converter',
  trivial_prefix_taken: 'trivial_prefix',
  malformed_trajectory: 'dialect',
  // Found where the body is loaded and redacted, as malformed_trajectory is.
  redaction_changed_grade: 'dialect',
  missing_tool_schemas: 'dialect',
  unknown_tool: 'dialect',
  unparseable_arguments: 'dialect',
  not_expressible: 'dialect',
  lint_failed: 'dialect',
};

export const LintFinding = z.object({
  recordId: z.string(),
  severity: z.enum(['error', 'warning']),
  code: z.string(),
  message: z.string(),
});
export type LintFinding = z.infer<typeof LintFinding>;

const count = z.number().int().min(0);
export const SftReport = z.object({
  dialect: SftDialect,
  input: count,
  exported: count,
  rejected: count,
  /** Per step: records in, records out; `in − out` = the step's rejections. */
  steps: z.array(z.object({ step: SftStep, in: count, out: count })),
  /** Per reason (only reasons that occurred): count, first few record ids, first detail. */
  rejections: z.record(
    z.string(),
    z.object({ step: SftStep, count, examples: z.array(z.string()), detail: z.string().nullable() }),
  ),
  /** The paper's accounting view (§6.5): records into the converter and kept by it. */
  converter: z.object({ in: count, kept: count }),
  retained: z.object({
    count,
    avgReward: z.number().nullable(),
    avgMessages: z.number().nullable(),
    avgToolCalls: z.number().nullable(),
    /** Exported records that have no reward (admitted by a pool without a threshold: `--min-reward none`). */
    withoutReward: count.default(0),
  }),
  /** Tasks set aside as UNSOLVABLE (§6.3), listed, not exported. */
  unsolvableTasks: z.array(z.string()),
  lint: z.object({ errors: count, warnings: count, byCode: z.record(z.string(), count) }),
  /** The exported records rendered with a chat template (absent: options.renderCheck false, or a preview). */
  render: RenderSummary.optional(),
});
export type SftReport = z.infer<typeof SftReport>;
export { ManifestRewards, ManifestSchemaSource, ManifestScoreBasis };

export const ManifestFile = z.object({ path: z.string(), bytes: count, sha256: z.string(), rows: count.nullable() });
export type ManifestFile = z.infer<typeof ManifestFile>;

export const ManifestRecord = z.object({
  recordId: z.string(),
  trajectoryId: z.string(),
  taskId: z.string(),
  trial: z.number().int().nullable(),
  file: z.string(),
  /** 0-based line (JSONL) or row (parquet) in `file`. */
  index: count,
  /** sha256 of the JSONL line (without its newline) or of the parquet row as compact JSON. */
  sha256: z.string(),
  lineage: SftLineage,
  /** Where its tool schemas came from: an id of the manifest's toolSchemas (absent in manifests before it). */
  schemas: z.string().optional(),
});
export type ManifestRecord = z.infer<typeof ManifestRecord>;

export const SftManifest = z.object({
  format: z.literal('coworkenv-sft-export'),
  formatVersion: z.literal(1),
  tool: z.object({ name: z.string(), version: z.string() }),
  createdAt: z.string(),
  dialect: SftDialect,
  /** What the trainer must know to load the files unchanged (decoding, datasets flags, dataset_info). */
  loading: z.array(z.string()),
  options: SftOptions.omit({ overwrite: true }),
  report: SftReport,
  files: z.array(ManifestFile),
  toolSchemas: z.array(ManifestSchemaSource).optional(),
  rewards: ManifestRewards.optional(),
  /** Per collection: the score basis selection read and the disagreements among the exported records. */
  scoreBasis: z.array(ManifestScoreBasis).optional(),
  records: z.array(ManifestRecord),
});
export type SftManifest = z.infer<typeof SftManifest>;

export const ManifestDiff = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(z.string()),
  unchanged: count,
  counts: z.object({
    a: z.object({ exported: count, rejected: count }),
    b: z.object({ exported: count, rejected: count }),
  }),
  rejections: z.record(z.string(), z.object({ a: count, b: count })),
  /** Top-level option keys whose values differ, and whether dialect / tool version differ. */
  options: z.array(z.string()),
  dialect: z.object({ a: SftDialect, b: SftDialect }),
  toolVersion: z.object({ a: z.string(), b: z.string() }),
});
export type ManifestDiff = z.infer<typeof ManifestDiff>;

/** What previewSft answers: the export's decisions without writing (the Export page shows these live). */
export const SftPreview = z.object({
  report: SftReport,
  /** Per reason, the first records rejected for it, with what exactly was wrong. */
  examples: z.partialRecord(RejectionReason, z.array(z.object({ recordId: z.string(), detail: z.string() }))),
  /** The first exported record as the trainer reads it: the JSONL line, or the parquet row as JSON. */
  sample: z.object({ recordId: z.string(), trajectoryId: z.string(), text: z.string(), row: z.unknown() }).nullable(),
  findings: z.array(LintFinding),
  /**
   * Set when only a sample's bodies were read (whole task groups): `examined` of the `of` records past
   * the metadata steps. The counts of the later steps (converter, TRIVIAL prefix, dialect, lint) are then
   * estimates scaled to the whole selection; the metadata steps' counts stay exact. The export reads all.
   */
  estimate: z.object({ examined: count, of: count }).nullable(),
});
export type SftPreview = z.infer<typeof SftPreview>;

export const SftExportResult = z.object({
  outDir: z.string(),
  report: SftReport,
  files: z.array(ManifestFile),
  manifestSha256: z.string(),
});
export type SftExportResult = z.infer<typeof SftExportResult>;

/** Progress of a selection pass (every 1,000 records). */
export const SftProgress = z.object({
  phase: z.enum(['metadata', 'convert', 'trivial']),
  done: count,
  total: count,
});
export type SftProgress = z.infer<typeof SftProgress>;
