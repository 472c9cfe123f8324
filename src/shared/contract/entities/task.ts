import { z } from 'zod';

/** A task as the tasks grid shows it (indexed columns; the full spec is fetched apart). */
export const TaskRow = z.object({
  task_id: z.string(),
  name: z.string(),
  origin: z.enum(['generated', 'imported', 'manual']),
  split: z.string(),
  category: z.string(),
  difficulty: z.string(),
  language: z.string(),
  services: z.array(z.string()),
  tools: z.array(z.string()),
  warnings: z.array(z.string()),
  version: z.number().int(),
  content_hash: z.string(),
  source_path: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** valid / invalid after the last validation; unvalidated when never validated or changed since. */
  validation_status: z.enum(['valid', 'invalid', 'unvalidated']),
  /** The first validator that failed in the last validation (null unless invalid). */
  failed_validator: z.string().nullable(),
});
export type TaskRow = z.infer<typeof TaskRow>;

export const TaskSortField = z.enum([
  'task_id',
  'name',
  'origin',
  'split',
  'category',
  'difficulty',
  'language',
  'services',
  'version',
  'updated_at',
  'validation_status',
  'failed_validator',
]);

export const ImportOutcome = z.object({
  source: z.string(),
  taskId: z.string().nullable(),
  status: z.enum(['imported', 'updated', 'unchanged', 'error']),
  version: z.number().int().nullable(),
  warnings: z.array(z.string()),
  errors: z.array(z.string()),
});
export type ImportOutcome = z.infer<typeof ImportOutcome>;
