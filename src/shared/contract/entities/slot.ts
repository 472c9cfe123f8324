import { z } from 'zod';

/** Claw-Eval's 13 business services (reference/claw-eval.md). Order is the catalog order shown in the UI. */
export const SERVICE_IDS = [
  'gmail',
  'calendar',
  'todo',
  'contacts',
  'finance',
  'notes',
  'kb',
  'helpdesk',
  'inventory',
  'rss',
  'crm',
  'config',
  'scheduler',
] as const;
export const ServiceId = z.enum(SERVICE_IDS);
export type ServiceId = z.infer<typeof ServiceId>;

export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
export const LANGUAGES = ['en', 'zh'] as const;
/** The procedural generator's scenario library (DESIGN.md §7). */
export const SCENARIOS = ['single_service', 'cross_service', 'safety', 'temporal', 'multi_turn'] as const;

/** Longest slot family (plan.generateGrid checks the names it would make against it). */
export const FAMILY_MAX = 80;
const trimmed = (max: number) => z.string().trim().max(max, `at most ${max} characters`);

/** Accepts an array or a spreadsheet-style "gmail, calendar" cell; stores a sorted, de-duplicated list. */
const servicesField = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(/[,;\s]+/)
          .filter(Boolean)
          .map((s) => s.toLowerCase())
      : v,
  z
    .array(
      z.enum(SERVICE_IDS, {
        error: (i) => `unknown service "${String(i.input)}"; expected one of ${SERVICE_IDS.join(', ')}`,
      }),
      { error: 'a list of services' },
    )
    .min(1, 'at least one service')
    .transform((list) => [...new Set(list)].sort((a, b) => SERVICE_IDS.indexOf(a) - SERVICE_IDS.indexOf(b))),
);

const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
  .refine(
    (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    'not a calendar date',
  );

/** A cell may arrive as text (paste, CLI) or as a number (grid editor). */
const count = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : v),
  z.number({ error: 'a whole number' }).int('a whole number').min(0, 'must be ≥ 0').max(100_000, 'at most 100000'),
);

const lower = <const T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.enum(values, { error: `${what}: one of ${values.join(', ')}` }),
  );

/**
 * The editable fields of a coverage slot, one schema per field so a single grid cell can be
 * validated alone. When adding a field: add it here, to the migration, to slots.repo's column map,
 * and to the grid's column defs.
 */
export const SlotFields = {
  family: trimmed(FAMILY_MAX).min(1, 'required'),
  services: servicesField,
  category: trimmed(60).min(1, 'required'),
  difficulty: lower(DIFFICULTIES, 'difficulty'),
  language: lower(LANGUAGES, 'language'),
  reference_date: isoDate,
  scenario: lower(SCENARIOS, 'scenario'),
  target_count: count,
  notes: trimmed(2000),
} as const;
export type SlotField = keyof typeof SlotFields;
export const SLOT_FIELDS = Object.keys(SlotFields) as SlotField[];
export const SlotFieldName = z.enum(SLOT_FIELDS as [SlotField, ...SlotField[]]);

export const SlotInput = z.object({
  family: SlotFields.family,
  services: SlotFields.services,
  category: SlotFields.category,
  difficulty: SlotFields.difficulty,
  language: SlotFields.language,
  reference_date: SlotFields.reference_date,
  scenario: SlotFields.scenario,
  target_count: SlotFields.target_count.default(1),
  notes: SlotFields.notes.default(''),
});
export type SlotInput = z.input<typeof SlotInput>;

export const SlotId = z.number().int().positive();

export const Slot = z.object({
  id: SlotId,
  family: z.string(),
  services: z.array(ServiceId),
  category: z.string(),
  difficulty: z.enum(DIFFICULTIES),
  language: z.enum(LANGUAGES),
  reference_date: z.string(),
  scenario: z.enum(SCENARIOS),
  target_count: z.number().int(),
  notes: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Slot = z.infer<typeof Slot>;

/** Columns the grid may sort and filter on; every one is indexed (see migration 0001). */
export const SlotSortField = z.enum([
  'id',
  ...SLOT_FIELDS.filter((f): f is Exclude<SlotField, 'notes'> => f !== 'notes'),
  'updated_at',
]);
