import type { HandlerMap } from '../lib/handler-types';
import { jobsHandlers } from '../jobs/jobs.handlers';
import { planHandlers } from '../plan/plan.handlers';
import { workspaceHandlers } from '../workspace/workspace.handlers';
import { tasksHandlers } from '../tasks/tasks.handlers';
import { envHandlers } from '../env/env.handlers';
import { validationHandlers } from '../validation/validation.handlers';
import { gradingHandlers } from '../grading/grading.handlers';
import { upstreamHandlers } from '../upstream-grader/upstream.handlers';
import { upstreamAppHandlers } from '../upstream-grader/upstream-app.handlers';
import { judgeHandlers } from '../grading/judge/judge.handlers';
import { scoreBasisHandlers } from '../grading/score-basis.handlers';
import { trajectoriesHandlers } from '../trajectories/trajectories.handlers';
import { endpointsHandlers } from '../endpoints/endpoints.handlers';
import { lineageHandlers } from '../generation/llm/lineage.handlers';
import { generationHandlers } from '../generation/generation.handlers';
import { exportHandlers } from '../export/workspace/export.handlers';
import { runsHandlers } from '../runs/runs.handlers';
import { curationHandlers } from '../curation/curation.handlers';

/** A procedure without a handler is a compile error here; test/arch catches stray extra keys. */
export const handlers: HandlerMap = {
  ...workspaceHandlers,
  ...planHandlers,
  ...jobsHandlers,
  ...tasksHandlers,
  ...envHandlers,
  ...validationHandlers,
  ...gradingHandlers,
  ...upstreamHandlers,
  ...upstreamAppHandlers,
  ...judgeHandlers,
  ...scoreBasisHandlers,
  ...trajectoriesHandlers,
  ...endpointsHandlers,
  ...lineageHandlers,
  ...generationHandlers,
  ...exportHandlers,
  ...runsHandlers,
  ...curationHandlers,
};
