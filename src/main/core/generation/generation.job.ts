import { prepareCached, type WriteDb } from '../db/sqlite';
import type { JobDefinition } from '../jobs/job-definition';
import { storeTaskSpec } from '../tasks/spec-store';
import { validationWriter } from '../validation/validation.repo';
import { generationWriter } from './generation.repo';
import { runLlmGeneration } from './llm/llm-job';
import {
  type GenerationJobInput,
  type GenerationResult,
  type GenerationUnit,
  locator,
  runSummary,
  totalCandidates,
} from './run-shape';

export type { GenerationJobInput, GenerationUnit } from './run-shape';
import { draftOne, type Steer, taskIdFor } from './procedural/generate';
import { type CandidateResult, validatedCandidate } from './validated';

declare module '../jobs/job-types' {
  interface JobInputs {
    'generation.run': GenerationJobInput;
  }
}

function candidate(input: GenerationJobInput, unit: GenerationUnit, index: number, now: () => string): CandidateResult {
  try {
    const make = (attempt: 0 | 1, steer: Steer) => draftOne(unit.slot, input.seed, index, attempt, steer);
    return validatedCandidate(index, make, now, unit.slot);
  } catch (err) {
    // A generator bug is one discarded candidate with its error, never a failed run.
    const taskId = taskIdFor(unit.slot, input.seed, index);
    return { index, taskId, outcome: 'discarded', reason: `generator error: ${(err as Error).message}`, rounds: [] };
  }
}

/**
 * Inside the batch transaction: an accepted candidate becomes a generated task linked to its slot,
 * with its rounds as the task's validation report (the accepted round's candidate is the stored
 * spec itself, so it is not stored twice); every candidate leaves its outcome row.
 */
function commit(db: WriteDb, input: GenerationJobInput, unit: GenerationUnit, r: CandidateResult, now: string): void {
  // the slot was deleted meanwhile
  if (!prepareCached(db, 'SELECT 1 FROM coverage_slots WHERE id = ?').get(unit.slot.id)) return;
  const failed = r.rounds.at(-1)?.verdicts.find((v) => v.status === 'fail')?.validator ?? null;
  if (r.spec) {
    storeTaskSpec(db, r.spec, {
      origin: 'generated',
      now,
      reason: `generated (${input.generator}, seed ${input.seed}, ${r.outcome})`,
    });
    const { hash } = prepareCached(db, 'SELECT content_hash AS hash FROM tasks WHERE task_id = ?').get(r.taskId) as {
      hash: string;
    };
    const rounds = r.rounds.map((x, i) => (i === r.rounds.length - 1 ? { ...x, candidate: undefined } : x));
    validationWriter(db).save(r.taskId, rounds, hash);
  }
  generationWriter(db).saveCandidate({
    slotId: unit.slot.id,
    seed: input.seed,
    index: r.index,
    taskId: r.taskId,
    generator: input.generator,
    outcome: r.outcome,
    failed: r.spec ? null : (failed ?? null),
    reason: r.reason ?? '',
    rounds: r.spec ? [] : r.rounds,
    now,
  });
}

export const generationJob: JobDefinition<GenerationJobInput, GenerationResult> = {
  total: totalCandidates,
  run(ctx, input) {
    if (input.generator === 'llm') return runLlmGeneration(ctx, input);
    const total = totalCandidates(input);
    const at = locator(input.units);
    for (let from = ctx.resumeFrom; from < total; from += input.batchSize) {
      const to = Math.min(total, from + input.batchSize);
      // Generation and validation run outside the transaction; the batch's writes are brief.
      const batch = Array.from({ length: to - from }, (_, k) => {
        const { unit, index } = at(from + k);
        return { unit, r: candidate(input, unit, index, ctx.now) };
      });
      const n = (o: string) => batch.filter((b) => b.r.outcome === o).length;
      ctx.commitBatch(
        (db) => {
          const now = ctx.now();
          for (const { unit, r } of batch) commit(db, input, unit, r, now);
        },
        to,
        `${to} of ${total} candidates (last batch: ${n('valid')} valid, ${n('repaired')} repaired, ` +
          `${n('discarded')} discarded)`,
        ['tasks', 'validation_reports', 'generation_candidates'],
      );
    }
    return runSummary(ctx.db, input);
  },
};
