import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import { VALIDATORS, type ValidationRound, type Verdict } from '../../../shared/contract/validation.contract';
import { environmentForSpec, taskClock, type StoredFixture } from '../tasks/task-spec-of';
import { gradingConsistency } from './grading-consistency';
import { leakage } from './leakage';
import { unifiedDiff } from './line-diff';
import { servicesRecords } from './services-records';
import { solvability } from './solvability';
import { structure } from './structure';
import { toolConstraints } from './tool-constraints';
import { slotConformance } from './slot-conformance';
import { notApplicable, type SlotTarget, type ValidationInput } from './types';
import { weights } from './weights';

export type ValidateOptions = {
  /** The clock of tasks without a reference date (imports run on the wall clock upstream). */
  now?: () => Date;
  /** An imported Claw-Eval task (validate-stored.ts): record vocabulary issues are warnings, not failures. */
  imported?: boolean;
  /** The coverage slot a generated task must honour (slot_conformance); absent: not applicable. */
  slot?: SlotTarget;
};
export type Validation = { valid: boolean; verdicts: Verdict[]; spec?: TaskSpec };

/** The verdicts of a candidate that does not parse: its structure failure, and nothing else run. */
export function unparsed(structureVerdict: Verdict): Validation {
  const skipped = VALIDATORS.filter((v) => v !== 'structure').map((v) =>
    notApplicable(v, '(spec)', 'not run: the spec does not parse (see structure)'),
  );
  return { valid: false, verdicts: [structureVerdict, ...skipped] };
}

/**
 * Every validator of DESIGN.md §6, in order. A validator whose premise failed is not run and says
 * so (not_applicable): nothing parses after a structure failure, and runs on unknown services or
 * malformed records would only echo services_records. Valid = no verdict failed.
 */
export function validate(raw: unknown, fixtures: readonly StoredFixture[] = [], o: ValidateOptions = {}): Validation {
  const s = structure(raw);
  if (!s.spec) return unparsed(s.verdict);
  const spec = s.spec;
  const now = spec.reference_date ? taskClock(spec) : taskClock(spec, o.now?.() ?? new Date());
  const input: ValidationInput = {
    spec,
    fixtures,
    environment: () => environmentForSpec(spec, fixtures as StoredFixture[], now),
    now: now(),
    imported: o.imported ?? false,
    ...(o.slot ? { slot: o.slot } : {}),
  };
  const records = servicesRecords(input);
  const runnable = records.status !== 'fail';
  const skip = (v: 'grading_consistency' | 'solvability') =>
    notApplicable(v, 'services', 'not run: the services or their records are invalid (see services_records)');
  const verdicts = [
    s.verdict,
    records,
    weights(input),
    toolConstraints(input),
    leakage(input),
    runnable ? gradingConsistency(input) : skip('grading_consistency'),
    runnable ? solvability(input) : skip('solvability'),
    slotConformance(input),
  ];
  return { valid: verdicts.every((v) => v.status !== 'fail'), verdicts, spec };
}

export type Round = Omit<ValidationRound, 'version'> & { candidate: unknown };
export type Regenerate = (feedback: Verdict[]) => unknown | Promise<unknown>;

const pretty = (c: unknown) => JSON.stringify(c, null, 2) ?? 'undefined';

/**
 * Validation with feedback repair (DESIGN.md §6): a failing candidate's failed verdicts go back to
 * the generator for exactly one guided retry; a retry that still fails is discarded — answered as
 * `accepted: null` but kept, with both rounds, their verdicts and the diff between them.
 */
export async function validateAndRepair(
  candidate: unknown,
  regenerate: Regenerate,
  o: ValidateOptions & { fixtures?: readonly StoredFixture[] } = {},
): Promise<{ accepted: TaskSpec | null; rounds: Round[] }> {
  const stamp = () => (o.now?.() ?? new Date()).toISOString();
  const first = validate(candidate, o.fixtures, o);
  const rounds: Round[] = [
    { round: 1, valid: first.valid, verdicts: first.verdicts, diff: '', created_at: stamp(), candidate },
  ];
  if (first.valid) return { accepted: first.spec!, rounds };
  const retry = await regenerate(first.verdicts.filter((v) => v.status === 'fail'));
  const second = validate(retry, o.fixtures, o);
  rounds.push({
    round: 2,
    valid: second.valid,
    verdicts: second.verdicts,
    diff: unifiedDiff(pretty(candidate), pretty(retry), { from: 'round 1', to: 'round 2' }),
    created_at: stamp(),
    candidate: retry,
  });
  return { accepted: second.valid ? second.spec! : null, rounds };
}
