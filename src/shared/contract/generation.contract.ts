import { z } from 'zod';
import { job, query } from './define';
import { SlotId } from './entities/slot';

/** Generators that can fill slots: the offline procedural library, or a configured model endpoint. */
export const GENERATORS = ['procedural', 'llm'] as const;
export const GeneratorName = z.enum(GENERATORS);

export const CandidateOutcome = z.enum(['valid', 'repaired', 'discarded']);

/**
 * Why candidates were discarded, most frequent first: the first validator that failed the last
 * round, or for a model answer that never became a valid candidate: not_json, timeout,
 * request_failed (429 / 5xx / transport after the retries), endpoint_error (key refused, unknown
 * model); `generator` for a generator error.
 */
export const DiscardReasons = z.array(z.object({ reason: z.string(), count: z.number().int() }));

/** A slot's generation figures, all SQL aggregates (the plan grid shows them next to the target). */
export const SlotGenerationCounts = z.object({
  slotId: SlotId,
  target: z.number().int(),
  /** Tasks linked to the slot whose validation status is valid (whatever made them). */
  validTasks: z.number().int(),
  /** Candidates generated for it, over every run. */
  generated: z.number().int(),
  validFirstTime: z.number().int(),
  repaired: z.number().int(),
  discarded: z.number().int(),
  discardReasons: DiscardReasons,
});
export type SlotGenerationCounts = z.infer<typeof SlotGenerationCounts>;

/** One slot's share of a generation run (counted from the workspace, so a resumed run reports it whole). */
export const SlotRunReport = z.object({
  slotId: SlotId,
  generated: z.number().int(),
  validFirstTime: z.number().int(),
  repaired: z.number().int(),
  discarded: z.number().int(),
  discardReasons: DiscardReasons,
});
export type SlotRunReport = z.infer<typeof SlotRunReport>;

/** One heat-map cell: its two keys, the slots in it, their summed targets and their valid tasks. */
export const CoverageCell = z.object({
  row: z.string(),
  col: z.string(),
  slots: z.number().int(),
  planned: z.number().int(),
  valid: z.number().int(),
});
export type CoverageCell = z.infer<typeof CoverageCell>;

export const generationContract = {
  'generation.run': job({
    summary:
      'Generate tasks for plan slots (all, the given ids, or those below target) in a worker: each candidate is ' +
      'validated and repaired once; valid ones are stored as generated tasks linked to their slot.',
    input: z.object({
      slots: z
        .union([z.enum(['all', 'below_target']), z.object({ ids: z.array(SlotId).min(1).max(100_000) })])
        .default('below_target')
        .describe('"all", "below_target" (slots with fewer valid tasks than their target), or {ids: […]}'),
      perSlot: z
        .number()
        .int()
        .min(1)
        .max(10_000)
        .optional()
        .describe("candidates per slot; default: the slot's target minus the valid tasks it already has"),
      seed: z.number().int().min(0).max(2_147_483_647).default(1),
      generator: GeneratorName.default('procedural'),
      endpoint: z.string().trim().min(1).optional().describe('the model endpoint (required by the llm generator)'),
      concurrency: z
        .number()
        .int()
        .min(1)
        .max(32)
        .default(4)
        .describe('llm: model requests in flight at once (candidates are committed in order)'),
    }),
    result: z.object({
      /** Slots that got candidates in this run. */
      slots: z.number().int(),
      candidates: z.number().int(),
      validFirstTime: z.number().int(),
      repaired: z.number().int(),
      discarded: z.number().int(),
      /** Slots the generator cannot serve, one sentence each (unknown service, too many services…). */
      problems: z.array(z.string()),
      /** Per slot of this run, in slot order. */
      perSlot: z.array(SlotRunReport).default([]),
      /** Why an llm run stopped early (no key, key refused, unknown model); null when it did not. */
      stopped: z.string().nullable().default(null),
    }),
  }),
  'generation.coverage': query({
    summary:
      'Plan vs actual for the heat maps: planned tasks (targets) and valid tasks per service × category and per ' +
      'difficulty × language. A slot over several services counts in each of their rows.',
    input: z.object({}).default({}),
    output: z.object({
      servicesByCategory: z.array(CoverageCell),
      difficultyByLanguage: z.array(CoverageCell),
    }),
  }),
  'generation.slotCounts': query({
    summary:
      'Per slot: target, valid tasks, and candidates generated — valid first time, repaired, discarded (with the ' +
      'failing validators).',
    input: z.object({ slotIds: z.array(SlotId).max(10_000).optional() }).default({}),
    output: z.object({ slots: z.array(SlotGenerationCounts) }),
  }),
  'generation.candidates': query({
    summary:
      "One slot's generated candidates, newest run first: outcome, task id, and for discarded ones the reason and " +
      'every round (verdicts, diff, candidate).',
    input: z.object({
      slotId: SlotId,
      outcome: CandidateOutcome.optional(),
      limit: z.number().int().min(1).max(500).default(50),
      offset: z.number().int().min(0).default(0),
    }),
    output: z.object({
      total: z.number().int(),
      rows: z.array(
        z.object({
          seed: z.number().int(),
          index: z.number().int(),
          taskId: z.string(),
          generator: z.string(),
          outcome: CandidateOutcome,
          /** A validator name, or not_json / timeout / request_failed / endpoint_error (see DiscardReasons). */
          failed: z.string().nullable(),
          reason: z.string(),
          rounds: z.array(z.unknown()),
          created_at: z.string(),
        }),
      ),
    }),
  }),
} as const;
