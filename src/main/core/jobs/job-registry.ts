import type { JobDefinition } from './job-definition';
import { generateGridJob } from '../plan/generate-grid.job';
import { validationJob } from '../validation/validation.job';

/** Job bodies by procedure name; the worker looks them up here. */
export const JOB_DEFINITIONS: Record<string, JobDefinition<never>> = {
  'plan.generateGrid': generateGridJob as JobDefinition<never>,
  'validation.run': validationJob as JobDefinition<never>,
};
