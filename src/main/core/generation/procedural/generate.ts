import { z } from 'zod';
import { DIFFICULTIES, LANGUAGES, SCENARIOS, SERVICE_IDS } from '../../../../shared/contract/entities/slot';
import { TaskSpec, type TaskSpecInput } from '../../../../shared/contract/entities/task-spec';
import { FAMILIES } from './families';
import type { GenSlot } from './families/family';
import { type Depth, Gen, hash32 } from './gen-context';
import { KITS } from './kits';
import { buildTask } from './task-builder';
import { makeWorld } from './world';

/**
 * Steering for a regenerated candidate (the procedural "repair"): a new sub-seed always; `simpler`
 * lowers the depth one step (fewer steps and records) when the failure was in running the plan.
 */
export type Steer = { simpler?: boolean };

export type GenerateOptions = { seed: number; count: number; start?: number };

const SlotShape = z.object({
  id: z.number().int().positive().optional(),
  family: z.string().default('generated'),
  services: z.array(z.string()).min(1, 'names no service'),
  category: z.string().default('general'),
  difficulty: z.enum(DIFFICULTIES, { error: `one of ${DIFFICULTIES.join(', ')}` }),
  language: z.enum(LANGUAGES, { error: `one of ${LANGUAGES.join(', ')}` }),
  reference_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD'),
  scenario: z.enum(SCENARIOS, {
    error: (i) => `"${String(i.input)}" is not a scenario; one of ${SCENARIOS.join(', ')}`,
  }),
});

const slotName = (raw: unknown) => {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === 'number' ? `slot ${id}` : 'slot';
};

/**
 * Why this slot cannot be generated for, or its normalised form. Every problem is one sentence
 * that names the slot and the field, never a throw: a plan with one bad slot still generates the rest.
 */
export function checkSlot(raw: unknown): { slot?: GenSlot; problems: string[] } {
  const name = slotName(raw);
  const parsed = SlotShape.safeParse(raw);
  if (!parsed.success)
    return { problems: parsed.error.issues.map((i) => `${name}: ${i.path.join('.') || 'slot'}: ${i.message}`) };
  const s = parsed.data;
  const unknown = s.services.filter((x) => !(SERVICE_IDS as readonly string[]).includes(x));
  if (unknown.length)
    return {
      problems: [
        `${name}: services: unknown service ${unknown.map((u) => `"${u}"`).join(', ')}; known: ` +
          `${SERVICE_IDS.join(', ')}`,
      ],
    };
  const services = [...new Set(s.services)] as GenSlot['services'];
  const family = FAMILIES[s.scenario];
  if (!family) return { problems: [`${name}: scenario: no procedural family for "${s.scenario}" yet`] };
  const { min, max } = family.services;
  if (services.length < min || services.length > max)
    return {
      problems: [
        `${name}: the ${s.scenario} scenario needs ${min === max ? min : `${min}–${max}`} service` +
          `${max > 1 ? 's' : ''}, the slot names ${services.length} (${services.join(', ')})`,
      ],
    };
  const missing = services.filter((x) => !KITS[x]);
  if (missing.length) return { problems: [`${name}: services: no procedural kit for ${missing.join(', ')} yet`] };
  return { slot: { ...s, services }, problems: [] };
}

const DEPTH: Record<GenSlot['difficulty'], Depth> = { easy: 1, medium: 2, hard: 3 };

/** Stable task id: the slot, the run's seed and the candidate's index (the repair attempt keeps it). */
export const taskIdFor = (slot: GenSlot, seed: number, index: number): string =>
  `gen_s${slot.id ?? 0}_${seed}_${String(index).padStart(5, '0')}`;

/** One candidate: slot × seed × index × attempt → the same TaskSpec, byte for byte. */
export function generateOne(slot: GenSlot, seed: number, index: number, attempt = 0, steer: Steer = {}): TaskSpec {
  return TaskSpec.parse(draftOne(slot, seed, index, attempt, steer));
}

/** The candidate before parsing (what validation takes: it parses once, as the structure validator). */
export function draftOne(slot: GenSlot, seed: number, index: number, attempt = 0, steer: Steer = {}): TaskSpecInput {
  const subSeed = hash32(`${slot.id ?? 0}|${seed}|${index}|${attempt}`);
  const depth = Math.max(1, DEPTH[slot.difficulty] - (steer.simpler ? 1 : 0)) as Depth;
  const g = new Gen(slot.language, subSeed, slot.reference_date, depth);
  const w = makeWorld(g);
  const family = FAMILIES[slot.scenario]!;
  const kits = g.shuffle(slot.services.map((s) => KITS[s]!));
  const composed = family.compose({ g, w, slot, kits });
  return buildTask({
    g,
    slot,
    taskId: taskIdFor(slot, seed, index),
    family: slot.scenario,
    provenance: { seed, sub_seed: subSeed, index, attempt },
    ...composed,
  });
}

/**
 * Candidates for one slot: `count` tasks at indexes start … start+count−1. A slot that cannot be
 * served answers problems and no candidates; a candidate whose construction fails (a bug) is
 * reported as a problem with its index, and the others are still returned.
 */
export function generateCandidates(raw: unknown, o: GenerateOptions): { candidates: TaskSpec[]; problems: string[] } {
  const { slot, problems } = checkSlot(raw);
  if (!slot) return { candidates: [], problems };
  const candidates: TaskSpec[] = [];
  const start = o.start ?? 0;
  for (let i = start; i < start + o.count; i++) {
    try {
      candidates.push(generateOne(slot, o.seed, i));
    } catch (err) {
      problems.push(`${slotName(raw)}: candidate ${i}: ${(err as Error).message}`);
    }
  }
  return { candidates, problems };
}
