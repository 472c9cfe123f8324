import { COMMIT_HOOKS } from './core/rpc/commit-hooks';
import { JOB_DEFINITIONS, JOB_HELPERS } from './core/rpc/job-registry';
import { serveJobWorker } from './core/jobs/job-worker';

/**
 * Entry of every job worker thread (out/main/job-worker.js): a composition root like index.ts, so the
 * job machinery below it imports no job body and no feature.
 */
serveJobWorker({ definitions: JOB_DEFINITIONS, helpers: JOB_HELPERS, commitHooks: COMMIT_HOOKS });
