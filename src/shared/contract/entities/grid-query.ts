import { z } from 'zod';

/**
 * A page request for a grid: the same words as ag-grid's infinite row model (sort model and
 * simple filter operators), so the renderer maps them one to one and the core pushes them into SQL.
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
]);
export type FilterOp = z.infer<typeof FilterOp>;

const Scalar = z.union([z.string().max(1000), z.number()]);

export const FilterCondition = z.object({ op: FilterOp, value: Scalar.optional(), valueTo: Scalar.optional() });
export type FilterCondition = z.infer<typeof FilterCondition>;

export const pageInput = <F extends z.ZodType<string>>(field: F) =>
  z.object({
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(5000).default(100),
    sort: z
      .array(z.object({ field, dir: z.enum(['asc', 'desc']) }))
      .max(8)
      .default([]),
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
  });
