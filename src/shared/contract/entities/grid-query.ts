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

/** The filter part of a page query: what "rows matching the filter" means for bulk actions too. */
export const gridFilterInput = <F extends z.ZodType<string>>(field: F) =>
  z.object({
    filters: z
      .array(
        z.object({
          field,
          operator: z.enum(['AND', 'OR']).default('AND'),
          conditions: z.array(FilterCondition).min(1).max(4),
        }),
      )
      .max(16)
      .default([]),
    /** The grid's quick search: matched against the grid's text columns (LIKE, or FTS5 where text is large). */
    quick: z.string().max(200).optional(),
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
