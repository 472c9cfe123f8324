import { z } from 'zod';

/** What an SFT manifest says of where the exported data came from, besides each record's lineage. */
const count = z.number().int().min(0);

/**
 * A source of the exported records' tool schemas: their own, a tools file given at import (`--tools`:
 * its name and the sha256 of its bytes), the workspace task they are graded against, or none.
 */
export const ManifestSchemaSource = z.object({
  /** own, none, task, or tools-1, tools-2… (one per tools file) */
  id: z.string(),
  origin: z.enum(['own', 'tools-file', 'task', 'none']),
  file: z.string().nullable(),
  sha256: z.string().nullable(),
  records: count,
});
export type ManifestSchemaSource = z.infer<typeof ManifestSchemaSource>;

/** Whether the export required rewards: per pool the records used, its threshold (null: none required). */
export const ManifestRewards = z.object({
  required: z.boolean(),
  pools: z.record(z.string(), z.number().nullable()),
  exportedWithoutReward: count,
});
export type ManifestRewards = z.infer<typeof ManifestRewards>;

/**
 * Per collection of the exported records: the score basis selection read (recorded | app; null outside a
 * workspace), how many records were exported and how many of them the recorded score and the app's grade disagree on.
 */
export const ManifestScoreBasis = z.object({
  collection: z.string().nullable(),
  basis: z.enum(['recorded', 'app']).nullable(),
  exported: count,
  disagreements: count,
});
export type ManifestScoreBasis = z.infer<typeof ManifestScoreBasis>;
