import { z } from 'zod';

/**
 * A page request for a grid: the same words as ag-grid's infinite row model (sort model and
 * simple filter operators), so the renderer maps them one to one and the core pushes them into SQL.
 * `in` is the set filter (a checkbox list of values): a list column matches when any element is one
 * of `values`; `''` in `values` stands for a blank cell.
 */
export const FilterOp = z.enum([
  'contains',
  'notContains',
  'equals',
  'notEqual',
  'startsWith',
  'endsWith',
  'blank',
  'notBlank',
  'lessThan',
  'lessThanOrEqual',
  'greaterThan',
  'greaterThanOrEqual',
  'inRange',
  'in',
]);
export type FilterOp = z.infer<typeof FilterOp>;

const Scalar = z.union([z.string().max(1000), z.number()]);

export const FilterCondition = z.object({
  op: FilterOp,
  value: Scalar.optional(),
  valueTo: Scalar.optional(),
  values: z.array(Scalar).max(5000).optional(),
});
export type FilterCondition = z.infer<typeof FilterCondition>;

/**
 * Control characters other than tab, line feed and carriage return. SQLite's LIKE reads its pattern as a C string,
 * so a NUL cut `%name\0…%` down to `%`, which matches every row: one NUL in a filter turned a bulk assign into an
 * assign of every task. No column holds them either (a person types none, and no imported value has them), so a
 * filter value with one is refused here, in the contract, for every transport alike.
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** "control character U+0000 at 12" for the first control character of `s`, else null. */
export function controlCharacter(s: string): string | null {
  const m = CONTROL.exec(s);
  if (!m) return null;
  const code = m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  return `control character U+${code} at ${m.index}`;
}

/** A condition's values with their paths inside the condition, for the check above. */
const conditionTexts = (c: FilterCondition): [(string | number)[], unknown][] => [
  [['value'], c.value],
  [['valueTo'], c.valueTo],
  ...(c.values ?? []).map((v, i): [(string | number)[], unknown] => [['values', i], v]),
];

/** The filter part of a page query: what "rows matching the filter" means for bulk actions too. */
export const gridFilterInput = <F extends z.ZodType<string>>(field: F) =>
  z.object({
    filters: z
      .array(
        z
          .object({
            field,
            operator: z.enum(['AND', 'OR']).default('AND'),
            conditions: z.array(FilterCondition).min(1).max(4),
          })
          // Checked per filter so the message names the column, which the path (filters.0.conditions.0) does not.
          .superRefine((f, ctx) => {
            // `field` is generic (each grid's enum), which hides it from the inferred type here.
            const name = String((f as { field: unknown }).field);
            f.conditions.forEach((c, i) => {
              for (const [at, v] of conditionTexts(c)) {
                const bad = typeof v === 'string' ? controlCharacter(v) : null;
                if (bad)
                  ctx.addIssue({
                    code: 'custom',
                    path: ['conditions', i, ...at],
                    message: `filter on ${name}: the ${c.op} value holds a ${bad}; filters never match on those`,
                  });
              }
            });
          }),
      )
      .max(16)
      .default([]),
    /** The grid's quick search: matched against the grid's text columns (LIKE, or FTS5 where text is large). */
    quick: z
      .string()
      .max(200)
      .superRefine((q, ctx) => {
        const bad = controlCharacter(q);
        if (bad)
          ctx.addIssue({ code: 'custom', message: `quick search holds a ${bad}; searches never match on those` });
      })
      .optional(),
  });

/**
 * The filter of a bulk write. A filter with no condition and no quick search compiles to no WHERE at all — every row —
 * so a bulk write over everything must say so (`{ all: true }`, the CLI's --all) rather than arrive as an empty filter.
 */
export const bulkWhere = <F extends z.ZodType<string>>(field: F, instead: string) =>
  gridFilterInput(field).refine((w) => w.filters.length > 0 || !!w.quick?.trim(), {
    message: `this filter filters nothing, so it would select every row; ${instead}`,
  });

export const pageInput = <F extends z.ZodType<string>>(field: F) =>
  gridFilterInput(field).extend({
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(5000).default(100),
    sort: z
      .array(z.object({ field, dir: z.enum(['asc', 'desc']) }))
      .max(8)
      .default([]),
  });

/** The set filter's value list: each distinct value of one column under the other filters, with its count. */
export const valuesInput = <F extends z.ZodType<string>>(field: F) =>
  gridFilterInput(field).extend({ field, limit: z.number().int().min(1).max(5000).default(1000) });

export const ValuesOutput = z.object({
  values: z.array(z.object({ value: z.union([z.string(), z.number()]), count: z.number().int() })),
  /** More distinct values exist than `limit`. */
  truncated: z.boolean(),
});
export type ValuesOutput = z.infer<typeof ValuesOutput>;

/** Select all rows matching the filter: their ids, up to `limit`. */
export const idsInput = <F extends z.ZodType<string>>(field: F) =>
  gridFilterInput(field).extend({ limit: z.number().int().min(1).max(1_000_000).default(100_000) });
