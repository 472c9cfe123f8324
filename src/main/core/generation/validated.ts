import type { TaskSpec, TaskSpecInput } from '../../../shared/contract/entities/task-spec';
import type { Verdict } from '../../../shared/contract/validation.contract';
import { unifiedDiff } from '../validation/line-diff';
import type { SlotTarget } from '../validation/types';
import { type Round, validate } from '../validation/validate';
import { checkSlot, draftOne, type Steer, taskIdFor } from './procedural/generate';

/** Makes a slot position's candidate: attempt 0 first, attempt 1 (steered) for the repair round. */
export type MakeCandidate = (attempt: 0 | 1, steer: Steer) => TaskSpec | TaskSpecInput;

export type Outcome = 'valid' | 'repaired' | 'discarded';

/** One candidate's fate: accepted (first time or after the repair round) or discarded with its reason. */
export type CandidateResult = {
  index: number;
  taskId: string;
  outcome: Outcome;
  /** The accepted TaskSpec (absent when discarded). */
  spec?: TaskSpec;
  /** Discarded: the failed verdicts of the last round, one line each ("leakage: prompt.text: …"). */
  reason?: string;
  /** Round 1, and round 2 when there was a repair; round 2 carries the diff against round 1. */
  rounds: Round[];
};

const pretty = (c: unknown) => JSON.stringify(c, null, 2) ?? 'undefined';

/** The failed verdicts as short lines: what the discard reason and the outcome counts group by. */
export const failureLines = (verdicts: Verdict[]): string[] =>
  verdicts
    .filter((v) => v.status === 'fail')
    .map((v) => `${v.validator}: ${v.messages[0] ? `${v.messages[0].field}: ${v.messages[0].message}` : 'failed'}`);

/**
 * The procedural "repair": regenerate the same slot position with a new sub-seed, steered by what
 * failed — a plan that did not run or grade (grading consistency, solvability, records) comes back
 * one difficulty step simpler; anything else (leakage, weights, slot conformance, …) gets a fresh
 * draw of the world (the families build from the slot, so test/generation/families.test.ts holds them to it).
 */
export function steerFrom(feedback: Verdict[]): Steer {
  const failed = new Set(feedback.map((v) => v.validator));
  return { simpler: failed.has('grading_consistency') || failed.has('solvability') || failed.has('services_records') };
}

/**
 * Validation with one guided repair round (DESIGN.md §6), synchronous like a job body: the same
 * validators and round shape as validation/validate.ts's validateAndRepair, with the regeneration
 * done by the procedural generator. `now` stamps the rounds; `slot` is the slot the candidate must
 * honour (slot_conformance), so a candidate off its slot is never counted under it.
 */
export function validatedCandidate(
  index: number,
  make: MakeCandidate,
  now: () => string,
  slot?: SlotTarget,
): CandidateResult {
  const o = slot ? { slot } : {};
  const first = make(0, {});
  const r1 = validate(first, [], o);
  const rounds: Round[] = [
    { round: 1, valid: r1.valid, verdicts: r1.verdicts, diff: '', created_at: now(), candidate: first },
  ];
  if (r1.valid) return { index, taskId: r1.spec!.task_id, outcome: 'valid', spec: r1.spec!, rounds };
  const retry = make(1, steerFrom(r1.verdicts.filter((v) => v.status === 'fail')));
  const r2 = validate(retry, [], o);
  rounds.push({
    round: 2,
    valid: r2.valid,
    verdicts: r2.verdicts,
    diff: unifiedDiff(pretty(first), pretty(retry), { from: 'round 1', to: 'round 2' }),
    created_at: now(),
    candidate: retry,
  });
  if (r2.valid) return { index, taskId: first.task_id, outcome: 'repaired', spec: r2.spec!, rounds };
  return { index, taskId: first.task_id, outcome: 'discarded', reason: failureLines(r2.verdicts).join('\n'), rounds };
}

/**
 * Generate, validate and repair `count` candidates of a slot (indexes start…start+count−1). A slot
 * that cannot be served answers its problems and no results; a candidate whose construction
 * throws (a generator bug) is reported as discarded with the error, never a crash of the run.
 */
export function generateValidated(
  raw: unknown,
  o: { seed: number; count: number; start?: number; now?: () => string },
): { results: CandidateResult[]; problems: string[] } {
  const { slot, problems } = checkSlot(raw);
  if (!slot) return { results: [], problems };
  const now = o.now ?? (() => new Date().toISOString());
  const results: CandidateResult[] = [];
  const start = o.start ?? 0;
  for (let i = start; i < start + o.count; i++) {
    try {
      results.push(validatedCandidate(i, (attempt, steer) => draftOne(slot, o.seed, i, attempt, steer), now, slot));
    } catch (err) {
      const taskId = taskIdFor(slot, o.seed, i);
      results.push({
        index: i,
        taskId,
        outcome: 'discarded',
        reason: `generator error: ${(err as Error).message}`,
        rounds: [],
      });
    }
  }
  return { results, problems };
}
