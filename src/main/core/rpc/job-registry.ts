import type { HelperName, JobDefinition, JobHelper } from '../jobs/job-definition';
import type { JobInputs, JobName, JobResult } from '../jobs/job-types';
import { generateGridJob } from '../plan/generate-grid.job';
import { validationJob } from '../validation/validation.job';
import { generationJob } from '../generation/generation.job';
import { importJob } from '../trajectories/import/import.job';
import { clawEvalExportJob, rlExportJob, sftExportJob } from '../export/workspace/export.jobs';
import { runJob } from '../runs/run.job';
import { regradeJob } from '../grading/judge/regrade.job';
import { upstreamGradeJob } from '../upstream-grader/upstream-grade.job';
import { parseHelperMain } from '../trajectories/import/parse-helper';
import { episodeHelperMain } from '../runs/episode-helper';
import { queryHelperMain } from '../jobs/query-helper';
import { OFF_THREAD_QUERIES } from './off-thread-queries';

/**
 * Job bodies by procedure name, beside the handler map (handlers.ts) at the top of the core: the runner
 * and the worker get them from the composition roots (core/index.ts, src/main/job-worker.ts) and import
 * no body themselves. The compiler demands one body per job procedure, taking the input its start
 * handler declared in JobInputs and returning the contract's result.
 */
export const JOB_DEFINITIONS = {
  'plan.generateGrid': generateGridJob,
  'validation.run': validationJob,
  'generation.run': generationJob,
  'trajectories.import': importJob,
  'export.sft': sftExportJob,
  'export.rl': rlExportJob,
  'export.clawEval': clawEvalExportJob,
  'runs.start': runJob,
  'upstream.grade': upstreamGradeJob,
  'grading.regradeJob': regradeJob,
} satisfies { [N in JobName]: JobDefinition<JobInputs[N], JobResult<N>> };

/** Helper thread bodies a job may start (JobContext.startHelper); they run in the job workers' entry. */
export const JOB_HELPERS: Record<HelperName, JobHelper> = {
  'trajectories.parse': parseHelperMain,
  'runs.episodes': episodeHelperMain,
  // Not a job's helper: the core's query workers (off-thread.ts) run on the same entry.
  'export.queries': (_data, env) => queryHelperMain(OFF_THREAD_QUERIES, env),
};
