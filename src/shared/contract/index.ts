import type { z } from 'zod';
import type { ApiResult } from './define';
import { jobsContract } from './jobs.contract';
import { planContract } from './plan.contract';
import { workspaceContract } from './workspace.contract';
import { tasksContract } from './tasks.contract';
import { envContract } from './env.contract';
import { validationContract } from './validation.contract';
import { gradingContract } from './grading.contract';
import { trajectoriesContract } from './trajectories.contract';
import { endpointsContract } from './endpoints.contract';
import { lineageContract } from './lineage.contract';
import { generationContract } from './generation.contract';
import { exportContract } from './export.contract';
import { runsContract } from './runs.contract';
import { curationContract } from './curation.contract';
import { upstreamContract } from './upstream.contract';

/** The one table of procedures. Adding one: define it in its area file; the compiler then asks for its handler. */
export const contract = {
  ...workspaceContract,
  ...planContract,
  ...jobsContract,
  ...tasksContract,
  ...envContract,
  ...validationContract,
  ...gradingContract,
  ...trajectoriesContract,
  ...endpointsContract,
  ...lineageContract,
  ...generationContract,
  ...exportContract,
  ...runsContract,
  ...curationContract,
  ...upstreamContract,
} as const;

export type Contract = typeof contract;
export type ProcedureName = keyof Contract;
export type Input<N extends ProcedureName> = z.input<Contract[N]['input']>;
export type ParsedInput<N extends ProcedureName> = z.output<Contract[N]['input']>;
export type Output<N extends ProcedureName> = z.output<Contract[N]['output']>;

export const PROCEDURE_NAMES = Object.keys(contract) as ProcedureName[];
export const isProcedureName = (name: string): name is ProcedureName => Object.hasOwn(contract, name);

export interface ApiClient {
  call<N extends ProcedureName>(name: N, input: Input<N>): Promise<Output<N>>;
}
export type RawCall = (name: string, input: unknown) => Promise<ApiResult<unknown>>;

export * from './define';
export * from './events';
