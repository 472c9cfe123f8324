import { z } from 'zod';
import { job, query } from './define';
import { SlotId } from './entities/slot';
import { ValidatorName } from './validation.contract';

/** Generators that can fill slots. `llm` (a configured endpoint) joins this list when it lands. */
export const GENERATORS = ['procedural'] as const;
export const GeneratorName = z.enum(GENERATORS);

export const CandidateOutcome = z.enum(['valid', 'repaired', 'discarded']);

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
  /** Discarded candidates by the first validator that failed them, most frequent first. */
  discardReasons: z.array(z.object({ validator: z.string(), count: z.number().int() })),
});
export type SlotGenerationCounts = z.infer<typeof SlotGenerationCounts>;

export const generationContract = {
  'generation.run': job({
    summary:
      'Generate tasks for plan slots (all, the given ids, or those below target) in a worker: each candidate is validated and repaired once; valid ones are stored as generated tasks linked to their slot.',
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
    }),
  }),
  'generation.slotCounts': query({
    summary:
      'Per slot: target, valid tasks, and candidates generated — valid first time, repaired, discarded (with the failing validators).',
    input: z.object({ slotIds: z.array(SlotId).max(10_000).optional() }).default({}),
    output: z.object({ slots: z.array(SlotGenerationCounts) }),
  }),
  'generation.candidates': query({
    summary:
      "One slot's generated candidates, newest run first: outcome, task id, and for discarded ones the reason and every round (verdicts, diff, candidate).",
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
          failed: ValidatorName.nullable(),
          reason: z.string(),
          rounds: z.array(z.unknown()),
          created_at: z.string(),
        }),
      ),
    }),
  }),
} as const;
