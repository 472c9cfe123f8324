import type { SCENARIOS, ServiceId } from '../../../../../shared/contract/entities/slot';
import type { Gen } from '../gen-context';
import type { Kit } from '../kits/kit';
import type { Draft } from '../task-builder';
import type { World } from '../world';

export type Scenario = (typeof SCENARIOS)[number];

/** The slot fields generation reads (a stored Slot, or a SlotInput-like object in tests and the CLI). */
export type GenSlot = {
  id?: number;
  family: string;
  services: ServiceId[];
  category: string;
  difficulty: 'easy' | 'medium' | 'hard';
  language: 'en' | 'zh';
  reference_date: string;
  scenario: Scenario;
};

export type FamilyInput = { g: Gen; w: World; slot: GenSlot; kits: Kit[] };

/** What a family composes; the generator adds ids and provenance and the builder makes the TaskSpec. */
export type Composed = Pick<
  Draft,
  'segments' | 'prompt' | 'answer' | 'checks' | 'prohibited' | 'answerCheck' | 'userAgent' | 'taskName'
>;

/**
 * One entry of the scenario library (DESIGN.md §7). `unsupported` says, for a slot, why this
 * family cannot serve it (too few services, …), before anything is generated.
 */
export type Family = {
  scenario: Scenario;
  /** Service counts it serves, inclusive. */
  services: { min: number; max: number };
  describe: string;
  compose(input: FamilyInput): Composed;
};

/** Services in the order a request mentions them: readers first, the one whose write carries the others' facts last. */
export function messengerLast(kits: Kit[]): Kit[] {
  const i = kits.findIndex((k) => k.messenger);
  return i < 0 ? kits : [...kits.slice(0, i), ...kits.slice(i + 1), kits[i]!];
}
