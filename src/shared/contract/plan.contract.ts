import { z } from 'zod';
import { mutation, query, job } from './define';
import { gridFilterInput, idsInput, pageInput, valuesInput, ValuesOutput } from './entities/grid-query';
import {
  DIFFICULTIES,
  FAMILY_MAX,
  LANGUAGES,
  SCENARIOS,
  ServiceId,
  Slot,
  SlotFieldName,
  SlotId,
  SlotInput,
  SlotSortField,
} from './entities/slot';

/** A plan grid row: the slot and its generation figures (SQL aggregates, so they move while a job runs). */
export const PlanRow = Slot.extend({
  /** Candidates generated for it, over every run. */
  generated: z.number().int(),
  /** Tasks linked to it that pass validation. */
  valid: z.number().int(),
  discarded: z.number().int(),
});
export type PlanRow = z.infer<typeof PlanRow>;

const SlotChange = z.object({ id: SlotId, field: SlotFieldName, before: z.unknown(), after: z.unknown() });

export const planContract = {
  'plan.list': query({
    summary: 'One page of coverage slots, sorted and filtered in SQL; total counts the filtered rows.',
    input: pageInput(SlotSortField),
    output: z.object({
      rows: z.array(PlanRow),
      total: z.number().int(),
      /** Rows in the plan without the filter (first block only): the status bar's "filtered of total". */
      unfiltered: z.number().int().optional(),
    }),
  }),
  'plan.values': query({
    summary:
      "A column's distinct values with their counts under the other filters (the set filter's checkbox list); " +
      'services are counted per service.',
    input: valuesInput(SlotSortField),
    output: ValuesOutput,
  }),
  'plan.ids': query({
    summary: 'The ids of every slot matching the filter (select all matching rows), up to limit.',
    input: idsInput(SlotSortField),
    output: z.object({ ids: z.array(SlotId), total: z.number().int() }),
  }),
  'plan.deleteWhere': mutation({
    summary:
      'Delete every slot matching the filter (a filter is required). The rows are kept as a batch that ' +
      'plan.restoreDeleted puts back (undo).',
    input: gridFilterInput(SlotSortField),
    output: z.object({ batch: z.string(), deleted: z.number().int() }),
  }),
  'plan.restoreDeleted': mutation({
    summary:
      'Put back a batch removed by plan.deleteWhere; a slot whose id was taken since is not written over (counted ' +
      'in conflicts).',
    input: z.object({ batch: z.string().min(1) }),
    output: z.object({ restored: z.number().int(), conflicts: z.number().int() }),
  }),
  'plan.get': query({
    summary: 'One coverage slot by id.',
    input: z.object({ id: SlotId }),
    output: Slot,
  }),
  'plan.stats': query({
    summary:
      'Plan totals: slots, planned tasks, and planned tasks per service, difficulty and language — of the slots ' +
      'matching the filter, when one is given.',
    input: gridFilterInput(SlotSortField).default({ filters: [] }),
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
      'writes nothing. An edit with `expected` (an undo) is skipped, and listed in `skipped`, when the cell no ' +
      'longer ' +
      'holds that value or its slot is gone: another writer changed it since.',
    input: z.object({
      edits: z
        .array(z.object({ id: SlotId, field: SlotFieldName, value: z.unknown(), expected: z.unknown().optional() }))
        .min(1)
        .max(10_000),
    }),
    output: z.object({
      changes: z.array(SlotChange),
      slots: z.array(Slot),
      skipped: z
        .array(
          z.object({ id: SlotId, field: SlotFieldName, current: z.unknown(), reason: z.enum(['changed', 'deleted']) }),
        )
        .default([]),
    }),
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
  'plan.exportCsv': query({
    summary:
      'The plan (or the slots matching the filter) as CSV, one page in id order: the header with the first page; ' +
      'call again with afterId = nextAfterId until it is null.',
    input: gridFilterInput(SlotSortField).extend({
      afterId: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(50_000).default(10_000),
    }),
    output: z.object({ csv: z.string(), rows: z.number().int(), nextAfterId: SlotId.nullable() }),
  }),
  'plan.importCsv': mutation({
    summary:
      'Import slots from CSV text (header: id, family, services, category, difficulty, language, reference_date, ' +
      'scenario, target_count, notes). A row whose id exists updates it, other rows are added. Every problem is ' +
      'named file:line: field; one problem imports nothing.',
    input: z.object({
      csv: z.string().max(64 * 1024 * 1024),
      /** The file's name, for messages. */
      file: z.string().trim().min(1).max(500).default('plan.csv'),
    }),
    output: z.object({ created: z.number().int(), updated: z.number().int() }),
  }),
  'plan.loadDemo': mutation({
    summary: 'Add the built-in demo coverage plan (24+ slots over the 13 Claw-Eval services).',
    input: z.object({}).default({}),
    output: z.object({ slots: z.array(Slot) }),
  }),
  'plan.undoGrid': mutation({
    summary:
      'Undo a finished plan.generateGrid job: delete the slots it made, and only those. Refuses, deleting nothing, ' +
      'while the job runs or when tasks were generated for its slots or they were edited since.',
    input: z.object({ jobId: z.string().trim().min(1).max(100) }),
    output: z.object({ deleted: z.number().int() }),
  }),
  'plan.generateGrid': job({
    summary:
      'Add the cross product of the given dimensions as slots (service sets × categories × difficulties × languages ' +
      '× scenarios × dates), committed in batches in a worker; resumable and cancellable.',
    input: z
      .object({
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
      })
      // Each slot's family is `family-gmail+calendar…`: it must fit the slot's field, or the job
      // would write rows that the grid then refuses to save again.
      .superRefine((i, ctx) => {
        i.serviceSets.forEach((set, n) => {
          const name = `${i.family}-${set.join('+')}`;
          if (name.length > FAMILY_MAX)
            ctx.addIssue({
              code: 'custom',
              path: ['serviceSets', n],
              message:
                `family ${name.slice(0, 40)}… would be ${name.length} characters, over the ${FAMILY_MAX} ` +
                'characters of a slot family; shorten the family or the service set',
            });
        });
      }),
    result: z.object({ added: z.number().int() }),
  }),
} as const;
