import type { z } from 'zod';
import type { Contract, ProcedureName } from '../../../shared/contract';
import { generateGridJob } from '../plan/generate-grid.job';
import { validationJob } from '../validation/validation.job';
import { generationJob } from '../generation/generation.job';
import { importJob } from '../trajectories/import/import.job';
import { clawEvalExportJob, rlExportJob, sftExportJob } from '../export/workspace/export.jobs';
import { runJob } from '../runs/run.job';
import type { HelperName, JobDefinition, JobHelper } from './job-definition';
import { parseHelperMain } from '../trajectories/import/parse-helper';
import { episodeHelperMain } from '../runs/episode-helper';
import { queryHelperMain } from './query-helper';

/** Job procedures that have a body (jobs.resume restarts another job's body). */
export type JobName = Exclude<
  { [N in ProcedureName]: Contract[N]['kind'] extends 'job' ? N : never }[ProcedureName],
  'jobs.resume'
>;
export type JobResult<N extends JobName> = z.output<NonNullable<Contract[N]['result']>>;

/** Job bodies by procedure name; the worker looks them up here. The compiler demands one per job procedure. */
export const JOB_DEFINITIONS = {
  'plan.generateGrid': generateGridJob,
  'validation.run': validationJob,
  'generation.run': generationJob,
  'trajectories.import': importJob,
  'export.sft': sftExportJob,
  'export.rl': rlExportJob,
  'export.clawEval': clawEvalExportJob,
  'runs.start': runJob,
} satisfies { [N in JobName]: JobDefinition<never, JobResult<N>> };

export type JobInput<N extends JobName> = Parameters<(typeof JOB_DEFINITIONS)[N]['run']>[1];

/** Helper thread bodies a job may start (JobContext.startHelper); they run in the job workers' entry. */
export const JOB_HELPERS: Record<HelperName, JobHelper> = {
  'trajectories.parse': parseHelperMain,
  'runs.episodes': episodeHelperMain,
  // Not a job's helper: the core's query workers (off-thread.ts) run on the same entry.
  'export.queries': queryHelperMain,
};
