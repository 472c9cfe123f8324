import type { JobName } from '../../../shared/contract/job-result';

export type { JobName, JobResult } from '../../../shared/contract/job-result';

/**
 * What each job's start handler hands its body. Every body file adds its own entry
 * (`declare module '…/jobs/job-types' { interface JobInputs { 'x.y': XInput } }`), so this file, the runner
 * and the context need not import the bodies: the registry (rpc/job-registry.ts) checks that every job
 * procedure has a body taking exactly this input.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in each job body file.
export interface JobInputs {}

export type JobInput<N extends JobName> = N extends keyof JobInputs ? JobInputs[N] : never;

/** Read-only queries the core runs in a query worker (rpc/off-thread-queries.ts), by name. */
export type OffThreadName = 'export.sftPreview';
