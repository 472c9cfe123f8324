import { sftPreviewOf } from '../export/workspace/sft-preview';
import type { OffThreadName } from '../jobs/job-types';
import type { OffThreadQueries } from '../jobs/query-helper';

/** The queries a query worker runs (jobs/off-thread.ts), by name: long reads kept off the core's thread. */
export const OFF_THREAD_QUERIES = {
  'export.sftPreview': sftPreviewOf,
} satisfies Record<OffThreadName, (db: never, input: never) => unknown> & OffThreadQueries;
