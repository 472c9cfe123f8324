import { z } from 'zod';

/**
 * Typed fields for fixture record schemas. A record schema stays lenient (unknown fields are kept),
 * but the fields it names are typed precisely, so an edit in the fixture grid keeps a column's type
 * and the services_records validator catches a wrong one. `describeField` reads a field's type back
 * for the grid (its editor, its parser, its enum list).
 */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'enum' | 'list' | 'json';
export type FieldInfo = {
  type: FieldType;
  nullable: boolean;
  min?: number;
  format?: 'email';
  values?: readonly string[];
};

const META = new WeakMap<object, Omit<FieldInfo, 'nullable'>>();
const tag = <T extends z.ZodType>(schema: T, info: Omit<FieldInfo, 'nullable'>): T => (META.set(schema, info), schema);

/** A count: a whole number ≥ 0 (stock, views, minutes). */
export const count = () => tag(z.number().int('a whole number').min(0, 'must be ≥ 0'), { type: 'integer', min: 0 });
/** A whole number. */
export const int = () => tag(z.number().int('a whole number'), { type: 'integer' });
/** A number ≥ min (a price, a rate). */
export const amount = (min?: number) =>
  tag(min === undefined ? z.number() : z.number().min(min, `must be ≥ ${min}`), {
    type: 'number',
    ...(min === undefined ? {} : { min }),
  });

const EMAIL = /^([^<>@\s]+@[^<>@\s]+\.[^<>@\s]+|[^<>]*<[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+>)$/;
/** An address as mails carry it: `a@b.c` or `Name <a@b.c>`. */
export const email = () =>
  tag(z.string().regex(EMAIL, 'an email address (name@example.com)'), { type: 'string', format: 'email' });

const DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
/** A date or date-time as Claw-Eval writes them (2026-03-01, 2026-03-01T09:00:00+08:00). */
export const dateText = () =>
  tag(
    z
      .string()
      .regex(DATE, 'a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS with an optional offset)')
      .refine((s) => !Number.isNaN(Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s)), 'not a calendar date'),
    { type: 'date' },
  );

/** One of a closed list, in its declared order (the grid sorts and lists it so). */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  tag(z.enum(values, { error: `one of ${values.map((v) => (v === '' ? '"" (empty)' : v)).join(', ')}` }), {
    type: 'enum',
    values,
  });

type Def = { type: string; innerType?: z.ZodType; element?: z.ZodType };
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** What the grid needs to know about one field of a record schema. */
export function describeField(schema: z.ZodType): FieldInfo {
  let s = schema;
  let nullable = false;
  for (;;) {
    const d = defOf(s);
    if ((d.type === 'optional' || d.type === 'nullable' || d.type === 'default') && d.innerType) {
      if (d.type === 'nullable') nullable = true;
      s = d.innerType;
    } else break;
  }
  const meta = META.get(s);
  if (meta) return { ...meta, nullable };
  const type = defOf(s).type;
  const basic: Record<string, FieldType> = { string: 'string', number: 'number', boolean: 'boolean', array: 'list' };
  if (type === 'enum') return { type: 'enum', nullable, values: (s as unknown as { options: string[] }).options };
  return { type: basic[type] ?? 'json', nullable };
}

/** The fields a record schema names, each with its type and whether a record must have it. */
export function describeRecord(schema: z.ZodType): Record<string, FieldInfo & { required: boolean }> {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.fromEntries(
    Object.entries(shape).map(([k, f]) => [k, { ...describeField(f), required: !f.safeParse(undefined).success }]),
  );
}
