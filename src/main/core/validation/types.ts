import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import { fieldName } from '../../../shared/contract/issue-path';
import type { Verdict } from '../../../shared/contract/validation.contract';
import type { Environment } from '../services/environment';
import type { StoredFixture } from '../tasks/task-spec-of';

/**
 * What a validator sees once the spec parses: the spec, the stored fixture files (imported tasks
 * keep their records as files; generated and hand-written ones inline them), and a factory of
 * fresh environments (clock pinned by the caller). Validators are pure: same input, same verdict.
 */
/**
 * The coverage slot a generated task was made for (a stored Slot, the procedural GenSlot and the
 * LLM generator's LlmSlot all fit): what slot_conformance holds the task to.
 */
export type SlotTarget = {
  id?: number;
  services: readonly string[];
  category: string;
  difficulty: string;
  language: string;
  reference_date: string;
  scenario: string;
};

export type ValidationInput = {
  spec: TaskSpec;
  fixtures: readonly StoredFixture[];
  /** A fresh environment of the task's services; throws when they cannot be built. */
  environment: () => Environment;
  /** The task's clock: services_records loads gmail and calendar fixtures with it, as upstream starts them. */
  now: Date;
  /**
   * An imported Claw-Eval task: our record vocabulary only warns on it (services-records.ts), since upstream serves
   * it as it is; generated and hand-written tasks keep failing on it.
   */
  imported: boolean;
  /** The slot the task was generated for; absent for imported and hand-written tasks (slot_conformance: n/a). */
  slot?: SlotTarget;
};

export type Message = Verdict['messages'][number];
export type ValidatorName = Verdict['validator'];

/** pass when there is no problem; the messages of a passing verdict are notes (what was excluded, and why). */
export const verdict = (validator: ValidatorName, problems: Message[], notes: Message[] = []): Verdict => ({
  validator,
  status: problems.length ? 'fail' : 'pass',
  messages: [...problems, ...notes],
});

export const notApplicable = (validator: ValidatorName, field: string, message: string): Verdict => ({
  validator,
  status: 'not_applicable',
  messages: [{ field, message }],
});

/** A zod issue path as the field names of the contract: `checks.2.weight`. */
export const fieldOf = (path: readonly PropertyKey[]): string => fieldName(path, '(spec)');
