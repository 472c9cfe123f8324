import { z } from 'zod';
import { mutation, query, job } from './define';
import { pageInput } from './entities/grid-query';
import {
  DIFFICULTIES,
  LANGUAGES,
  SCENARIOS,
  ServiceId,
  Slot,
  SlotFieldName,
  SlotId,
  SlotInput,
  SlotSortField,
} from './entities/slot';

const SlotChange = z.object({ id: SlotId, field: SlotFieldName, before: z.unknown(), after: z.unknown() });

export const planContract = {
  'plan.list': query({
    summary: 'One page of coverage slots, sorted and filtered in SQL; total counts the filtered rows.',
    input: pageInput(SlotSortField),
    output: z.object({ rows: z.array(Slot), total: z.number().int() }),
  }),
  'plan.get': query({
    summary: 'One coverage slot by id.',
    input: z.object({ id: SlotId }),
    output: Slot,
  }),
  'plan.stats': query({
    summary: 'Plan totals: slots, planned tasks, and planned tasks per service, difficulty and language.',
    input: z.object({}).default({}),
    output: z.object({
      slots: z.number().int(),
      plannedTasks: z.number().int(),
      byService: z.record(z.string(), z.number().int()),
      byDifficulty: z.record(z.string(), z.number().int()),
      byLanguage: z.record(z.string(), z.number().int()),
    }),
  }),
  'plan.create': mutation({
    summary: 'Add slots. All rows are validated first; one invalid row writes nothing.',
    input: z.object({ rows: z.array(SlotInput).min(1).max(10_000) }),
    output: z.object({ slots: z.array(Slot) }),
  }),
  'plan.update': mutation({
    summary:
      'Edit fields of slots (one cell or many, e.g. a fill-down). All edits are validated first; one invalid edit ' +
      'writes nothing.',
    input: z.object({
      edits: z
        .array(z.object({ id: SlotId, field: SlotFieldName, value: z.unknown() }))
        .min(1)
        .max(10_000),
    }),
    output: z.object({ changes: z.array(SlotChange), slots: z.array(Slot) }),
  }),
  'plan.delete': mutation({
    summary: 'Delete slots; answers the deleted rows so the deletion can be undone with plan.restore.',
    input: z.object({ ids: z.array(SlotId).min(1).max(100_000) }),
    output: z.object({ deleted: z.array(Slot) }),
  }),
  'plan.restore': mutation({
    summary: 'Re-insert deleted slots with their ids (undo of plan.delete). Refuses ids that exist.',
    input: z.object({ slots: z.array(Slot).min(1).max(100_000) }),
    output: z.object({ slots: z.array(Slot) }),
  }),
  'plan.paste': mutation({
    summary:
      'Bulk paste of spreadsheet rows: a row with an id updates that slot, a row without one creates a slot. Cells ' +
      'are text as a spreadsheet gives them; all rows are validated first and one bad cell writes nothing.',
    input: z.object({
      rows: z
        .array(
          z.object({
            id: SlotId.optional(),
            values: z.partialRecord(SlotFieldName, z.union([z.string(), z.number(), z.array(z.string())])),
          }),
        )
        .min(1)
        .max(10_000),
    }),
    output: z.object({ created: z.array(Slot), updated: z.array(z.object({ before: Slot, after: Slot })) }),
  }),
  'plan.loadDemo': mutation({
    summary: 'Add the built-in demo coverage plan (24+ slots over the 13 Claw-Eval services).',
    input: z.object({}).default({}),
    output: z.object({ slots: z.array(Slot) }),
  }),
  'plan.generateGrid': job({
    summary:
      'Add the cross product of the given dimensions as slots (service sets × categories × difficulties × languages ' +
      '× scenarios × dates), committed in batches in a worker; resumable and cancellable.',
    input: z.object({
      family: z.string().trim().min(1).max(60).default('grid'),
      serviceSets: z.array(z.array(ServiceId).min(1)).min(1).max(200),
      categories: z.array(z.string().trim().min(1).max(60)).min(1).max(100),
      difficulties: z
        .array(z.enum(DIFFICULTIES))
        .min(1)
        .default([...DIFFICULTIES]),
      languages: z
        .array(z.enum(LANGUAGES))
        .min(1)
        .default([...LANGUAGES]),
      scenarios: z.array(z.enum(SCENARIOS)).min(1).default(['single_service']),
      referenceDates: z
        .array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/))
        .min(1)
        .max(1000),
      targetCount: z.number().int().min(0).max(100_000).default(1),
      batchSize: z.number().int().min(1).max(50_000).default(5_000),
    }),
    result: z.object({ added: z.number().int() }),
  }),
} as const;
