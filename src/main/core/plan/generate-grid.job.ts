import type { ParsedInput } from '../../../shared/contract';
import { SlotFields } from '../../../shared/contract/entities/slot';
import { slotsWriter } from './slots.repo';
import { recordBatch } from './grid-undo';
import type { JobDefinition } from '../jobs/job-definition';
import type { JobResult } from '../jobs/job-types';

declare module '../jobs/job-types' {
  interface JobInputs {
    'plan.generateGrid': Input;
  }
}

type Input = ParsedInput<'plan.generateGrid'>;

/** Dimension sizes in the order the cross product varies them (last varies fastest). */
const dims = (i: Input) => [
  i.serviceSets.length,
  i.categories.length,
  i.difficulties.length,
  i.languages.length,
  i.scenarios.length,
  i.referenceDates.length,
];

/**
 * Unit n of the cross product, computed from n alone so a resumed job regenerates exactly the
 * rows that the interrupted attempt had not committed.
 */
export function slotAt(input: Input, n: number) {
  const sizes = dims(input);
  const idx: number[] = new Array(sizes.length);
  for (let d = sizes.length - 1; d >= 0; d--) {
    idx[d] = n % sizes[d]!;
    n = Math.floor(n / sizes[d]!);
  }
  const [s, c, d, l, sc, r] = idx as [number, number, number, number, number, number];
  const services = SlotFields.services.parse(input.serviceSets[s]);
  return {
    family: `${input.family}-${services.join('+')}`,
    services,
    category: input.categories[c]!,
    difficulty: input.difficulties[d]!,
    language: input.languages[l]!,
    reference_date: SlotFields.reference_date.parse(input.referenceDates[r]),
    scenario: input.scenarios[sc]!,
    target_count: input.targetCount,
    notes: '',
  };
}

export const generateGridJob: JobDefinition<Input, JobResult<'plan.generateGrid'>> = {
  total: (input) => dims(input).reduce((a, b) => a * b, 1),
  run(ctx, input) {
    const total = this.total(input);
    for (let from = ctx.resumeFrom; from < total; from += input.batchSize) {
      const to = Math.min(total, from + input.batchSize);
      ctx.commitBatch(
        (db) => {
          const now = ctx.now();
          const slots = slotsWriter(db);
          let first = 0;
          let last = 0;
          for (let n = from; n < to; n++) {
            last = slots.insertOnly(slotAt(input, n), now);
            if (n === from) first = last;
          }
          // What plan.undoGrid deletes: this batch's ids (contiguous inside its transaction).
          recordBatch(db, ctx.jobId, first, last, now);
        },
        to,
        `${to} of ${total} slots`,
        ['coverage_slots'],
      );
    }
    return { added: total };
  },
};
