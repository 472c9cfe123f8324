import type { JobDefinition } from './job-definition';
import { generateGridJob } from '../plan/generate-grid.job';

/** Job bodies by procedure name; the worker looks them up here. */
export const JOB_DEFINITIONS: Record<string, JobDefinition<never>> = {
  'plan.generateGrid': generateGridJob as JobDefinition<never>,
};
