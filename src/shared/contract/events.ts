import { z } from 'zod';

/**
 * What a `table.changed` event can name: the workspace tables a write announces (mutations through
 * ctx.touch, job batches, commit hooks). The renderer never names them in feature code: each query
 * declares the topics that invalidate it (watches.ts) and live queries and grids follow that.
 */
export const CHANGE_TOPICS = [
  'collections',
  'coverage_slots',
  'curation_batches',
  'curation_tasks',
  'endpoints',
  'generation_candidates',
  'jobs',
  'runs',
  'score_basis_log',
  'tasks',
  'trajectories',
  'upstream_grades',
  'validation_reports',
  'workspace_meta',
] as const;
export type ChangeTopic = (typeof CHANGE_TOPICS)[number];
const topics: ReadonlySet<string> = new Set(CHANGE_TOPICS);
/** A table name from the wire is a known topic (a newer core may announce tables this renderer does not know). */
export const isChangeTopic = (table: string): table is ChangeTopic => topics.has(table);

/** Push events, the same on every transport (IPC 'rpc:event', HTTP SSE /events). */
export const eventSchemas = {
  /**
   * A table changed (by this process, a job worker or another process such as the CLI): grids refetch.
   * `table` stays a string on the wire (forward compatible); it is one of CHANGE_TOPICS today.
   */
  'table.changed': z.object({ table: z.string(), ids: z.array(z.number()).optional() }),
  'job.progress': z.object({
    jobId: z.string(),
    name: z.string(),
    state: z.string(),
    done: z.number(),
    total: z.number(),
    message: z.string(),
  }),
} as const;
export type EventName = keyof typeof eventSchemas;
export type EventPayload<E extends EventName> = z.infer<(typeof eventSchemas)[E]>;
export type AnyEvent = { [E in EventName]: { event: E; payload: EventPayload<E> } }[EventName];
