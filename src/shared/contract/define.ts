import { z } from 'zod';

/**
 * query: reads only. mutation: runs in one synchronous write transaction and announces the
 * tables it touched. job: long work in a worker thread; answers a job id at once and reports
 * through `job.progress`.
 */
export type ProcedureKind = 'query' | 'mutation' | 'job';

export type ProcedureDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> = {
  kind: ProcedureKind;
  summary: string;
  input: I;
  output: O;
  /** Jobs only: what the finished job stores as its result (jobs.get / jobs.wait answer it). */
  result?: z.ZodType;
};

/** What starting a job answers; its progress comes as `job.progress` events, its result from jobs.wait. */
export const JobStarted = z.object({ jobId: z.string() });

type Def<I extends z.ZodType, O extends z.ZodType> = Omit<ProcedureDef<I, O>, 'kind'>;

export const query = <I extends z.ZodType, O extends z.ZodType>(d: Def<I, O>) => ({ ...d, kind: 'query' as const });
export const mutation = <I extends z.ZodType, O extends z.ZodType>(d: Def<I, O>) => ({
  ...d,
  kind: 'mutation' as const,
});
/** A job answers `{ jobId }` at once; `result` declares what the finished job leaves in jobs.result. */
export const job = <I extends z.ZodType, R extends z.ZodType>(d: { summary: string; input: I; result: R }) => ({
  ...d,
  output: JobStarted,
  kind: 'job' as const,
});

export const AppErrorCode = z.enum([
  'UNKNOWN_PROCEDURE',
  'INVALID_INPUT',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'NOT_FOUND',
  'CONFLICT',
  'READ_ONLY',
  'WORKSPACE_ERROR',
  'BUSY',
  'INTERNAL',
]);
export type AppErrorCode = z.infer<typeof AppErrorCode>;

/** One problem with an input, located by its path (row index, field name…). */
export const Issue = z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() });
export type Issue = z.infer<typeof Issue>;

export const AppErrorBody = z.object({ code: AppErrorCode, message: z.string(), issues: z.array(Issue).optional() });
export type AppErrorBody = z.infer<typeof AppErrorBody>;

/** Every transport answers this envelope; nothing throws across a process boundary. */
export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: AppErrorBody };
