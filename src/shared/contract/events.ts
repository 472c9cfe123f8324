import { z } from 'zod';

/** Push events, the same on every transport (IPC 'rpc:event', HTTP SSE /events). */
export const eventSchemas = {
  /** A table changed (by this process, a job worker or another process such as the CLI): grids refetch. */
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
