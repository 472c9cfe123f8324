import { z } from 'zod';
import { job, query } from './define';
import {
  AdmittableBucket,
  ChatTemplateId,
  LengthBudget,
  ManifestDiff,
  ManifestFile,
  RenderSummary,
  SftDialect,
  SftOptions,
  SftPreview,
  SftReport,
} from './entities/export';

/**
 * Exports from the workspace (DESIGN.md §9, issue 12): which trajectories and tasks an export takes,
 * previews the Export page shows live, and the export jobs. The cores are in src/main/core/export.
 */

const OutDir = z.string().min(1).max(4096);

/** Which stored trajectories an SFT export considers (the core then applies its §6.5 steps). */
export const SftSelection = z.object({
  /**
   * Only the tasks in this pool (curation's `set pool`; a task never curated is in `mixed`, curation's default).
   * Absent: every pool. Either way each record is judged by its own task's pool rule (threshold, converter).
   */
  pool: z.string().min(1).max(100).optional(),
  /** Buckets admitted when a trajectory has no include/exclude override (default KEEP, TRIVIAL). */
  admittedBuckets: z.array(AdmittableBucket).default(['KEEP', 'TRIVIAL']),
  /** Nothing curated yet: admit trajectories without a bucket too (UNBUCKETED). */
  allUncurated: z.boolean().default(false),
  /** Only these collections (default: all). */
  collections: z.array(z.string().min(1)).max(1000).optional(),
});
export type SftSelection = z.infer<typeof SftSelection>;

/** SFT options the page and CLI may set (buckets come from the selection, overwrite from the export). */
const SftOptionsInput = SftOptions.omit({ overwrite: true, admittedBuckets: true }).partial();

/** How much of the workspace is curated: the Export page and the CLI say so before exporting nothing. */
export const CurationState = z.object({
  trajectories: z.number().int(),
  bucketed: z.number().int(),
  included: z.number().int(),
  excluded: z.number().int(),
  superseded: z.number().int(),
  byBucket: z.record(z.string(), z.number().int()),
  /** True when no trajectory has a bucket or an include override: the default selection is empty. */
  nothingCurated: z.boolean(),
  /** What to do about it, when nothingCurated (null otherwise). */
  notice: z.string().nullable(),
});
export type CurationState = z.infer<typeof CurationState>;

export const RedactionSummary = z.object({
  /** Records (trajectories) in which something was redacted. */
  records: z.number().int(),
  total: z.number().int(),
  byRule: z.record(z.string(), z.number().int()),
});

export const SftExportJobResult = z.object({
  outDir: z.string(),
  dialect: SftDialect,
  report: SftReport,
  files: z.array(ManifestFile),
  manifestSha256: z.string(),
  redaction: RedactionSummary,
});
export type SftExportJobResult = z.infer<typeof SftExportJobResult>;

export const AdvantageMethod = z.enum(['grpo', 'drgrpo', 'gdpo', 'gigpo']);
/**
 * Whose arithmetic the advantages follow (σ estimator, ε or floor, one-rollout groups): the paper's preview, verl's
 * (verl-agent's for GiGPO) or TRL's. Default: verl, the package's trainer; TRL for GDPO, which verl lacks.
 */
export const AdvantageConvention = z.enum(['paper', 'verl', 'trl']);

/** Which tasks and rollouts an RL package takes. */
export const RlSelection = z.object({
  /** Tasks (default: every workspace task that has at least one rollout, or all tasks when none has). */
  taskIds: z.array(z.string().min(1)).max(100_000).optional(),
  /** Leave the rollouts out (tasks and environments only). */
  withoutRollouts: z.boolean().default(false),
  /** Only the rollouts of these runs, collections, agents (default: all); a group never mixes them anyway. */
  runs: z.array(z.number().int().min(1)).max(1000).optional(),
  collections: z.array(z.string().min(1)).max(1000).optional(),
  agents: z.array(z.string().min(1)).max(1000).optional(),
});

const Flag = z.object({
  level: z.enum(['warn', 'info']),
  code: z.string(),
  task_id: z.string().optional(),
  check_id: z.string().optional(),
  trajectory_id: z.string().optional(),
  message: z.string(),
});
/** The group-advantage preview (core/export/advantages/preview.ts), the parts the page shows. */
export const RlPreview = z.object({
  counts: z.looseObject({
    tasks: z.number().int(),
    rollouts: z.number().int(),
    valid_rollouts: z.number().int(),
    groups: z.number().int(),
    valid_groups: z.number().int(),
    no_signal_groups: z.number().int(),
  }),
  advantages: z.object({ min: z.number(), max: z.number(), mean_abs: z.number(), nonzero: z.number() }),
  groups: z.array(
    z.looseObject({
      task_id: z.string(),
      rollouts: z.number().int(),
      valid_rollouts: z.number().int(),
      valid: z.boolean(),
      mean: z.number().nullable(),
      std: z.number().nullable(),
      no_signal: z.boolean(),
    }),
  ),
  flags: z.array(Flag),
  settings: z.record(z.string(), z.unknown()),
});

/** The preview's default body budget: about a second of work on this class of machine. */
export const PREVIEW_BODIES = 500;

const FileEntry = z.object({ path: z.string(), bytes: z.number().int(), sha256: z.string() });

export const exportContract = {
  'export.curation': query({
    summary:
      'How much of the workspace is curated (buckets, include/exclude overrides, superseded rows): an SFT export ' +
      'admits KEEP and TRIVIAL by default, so with nothing curated it would select nothing, and this says so.',
    input: z.object({}).default({}),
    output: CurationState,
  }),
  'export.sftPreview': query({
    summary:
      'Everything an SFT export of the workspace would decide, without writing: counts per step and rejection ' +
      'reason with example records, one record as the trainer reads it, lint findings, and the curation state.',
    input: z.object({
      dialect: SftDialect,
      selection: SftSelection.default(SftSelection.parse({})),
      options: SftOptionsInput.default({}),
      examples: z.number().int().min(1).max(20).default(3),
      /**
       * Bodies read at most (whole task groups, the rest estimated: `preview.estimate`); null reads every
       * body (exact, about 2 ms a trajectory). The default keeps the preview live on any workspace.
       */
      maxBodies: z.number().int().min(1).nullable().default(PREVIEW_BODIES),
      /**
       * Runs off the core's thread either way; a newer request with the same key cancels this one, which then
       * answers CONFLICT (the Export page sends one key per page, so a change of filters stops the old preview).
       */
      key: z.string().min(1).max(200).optional(),
    }),
    output: z.object({ preview: SftPreview, curation: CurationState, redaction: RedactionSummary }),
  }),
  'export.sft': job({
    summary:
      'Write an SFT export of the curated workspace trajectories (TRL, OpenAI, LLaMA-Factory or verl) into a new ' +
      'folder, atomically, with rejections, lint results and a manifest (lineage per record); trajectories pass ' +
      'through credential redaction. An existing folder is refused unless overwrite.',
    input: z.object({
      dialect: SftDialect,
      outDir: OutDir,
      overwrite: z.boolean().default(false),
      selection: SftSelection.default(SftSelection.parse({})),
      options: SftOptionsInput.default({}),
    }),
    result: SftExportJobResult,
  }),
  'export.rlPreview': query({
    summary:
      'The group-advantage preview of an RL package of the workspace: groups (trials of a task) with their spread, ' +
      'groups without signal, checks a trivial run already meets.',
    input: z.object({
      advantage: AdvantageMethod.default('grpo'),
      convention: AdvantageConvention.optional(),
      selection: RlSelection.default(RlSelection.parse({})),
    }),
    output: z.object({ preview: RlPreview, tasks: z.number().int(), rollouts: z.number().int() }),
  }),
  'export.rl': job({
    summary:
      'Write an RL package of workspace tasks (tasks, fixtures, tool schemas, checks, verl RL parquet with tool and' +
      ' agent-loop YAML, rollouts with group advantages, README, manifest) into a new folder, atomically.',
    input: z.object({
      outDir: OutDir,
      overwrite: z.boolean().default(false),
      advantage: AdvantageMethod.default('grpo'),
      convention: AdvantageConvention.optional(),
      /** The tokenizer of the model to train (resources/tokenizers): length limits in its tokens, else characters. */
      tokenizer: ChatTemplateId.optional(),
      selection: RlSelection.default(RlSelection.parse({})),
    }),
    result: z.object({
      outDir: z.string(),
      packageId: z.string(),
      counts: z.object({
        tasks: z.number().int(),
        rollouts: z.number().int(),
        toolsets: z.number().int(),
        fixtures: z.number().int(),
      }),
      files: z.array(FileEntry),
      noSignalGroups: z.number().int(),
      redaction: RedactionSummary,
    }),
  }),
  'export.clawEval': job({
    summary:
      'Write workspace tasks as Claw-Eval task folders (task.yaml, fixtures, the generic grader.py with ' +
      'grading.json) into a new folder, atomically; imported tasks are written back verbatim.',
    input: z.object({
      outDir: OutDir,
      overwrite: z.boolean().default(false),
      taskIds: z.array(z.string().min(1)).max(100_000).optional(),
    }),
    result: z.object({
      outDir: z.string(),
      counts: z.object({
        tasks: z.number().int(),
        verbatim: z.number().int(),
        from_spec: z.number().int(),
        files: z.number().int(),
      }),
      files: z.array(FileEntry),
      warnings: z.array(z.string()),
    }),
  }),
  'export.diff': query({
    summary:
      'What changed between two SFT exports (their manifest.json files or folders): records by id, counts, options.',
    input: z.object({ a: z.string().min(1), b: z.string().min(1) }),
    output: ManifestDiff,
  }),
  'export.lint': query({
    summary:
      "A written JSONL SFT export re-read and re-linted with its trainer's rules, each record rendered with a chat " +
      'template and measured against a length budget; findings by record id.',
    input: z.object({
      dir: z.string().min(1),
      limit: z.number().int().min(1).max(10_000).default(200),
      /** Render every record with a shipped chat template (false: the trainer's rules only). */
      render: z.boolean().default(true),
      /** The template (default: the dialect's, as the export uses). */
      template: ChatTemplateId.optional(),
      /** Tokens of the template's tokenizer or characters (default: 1,024 tokens, TRL's max_length). */
      budget: LengthBudget.optional(),
    }),
    output: z.object({
      dialect: SftDialect,
      render: RenderSummary.nullable(),
      rows: z.number().int(),
      errors: z.number().int(),
      warnings: z.number().int(),
      findings: z.array(
        z.object({ recordId: z.string(), severity: z.string(), code: z.string(), message: z.string() }),
      ),
    }),
  }),
} as const;
