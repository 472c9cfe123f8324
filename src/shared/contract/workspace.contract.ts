import { z } from 'zod';
import { query } from './define';

export const WorkspaceInfo = z.object({
  path: z.string(),
  schemaVersion: z.number().int(),
  appSchemaVersion: z.number().int(),
  readOnly: z.boolean(),
  sizeBytes: z.number().int(),
  journalMode: z.string(),
  createdAt: z.string(),
  counts: z.object({
    slots: z.number().int(),
    jobs: z.number().int(),
    tasks: z.number().int(),
    taskVersions: z.number().int(),
    validationReports: z.number().int(),
    trajectories: z.number().int(),
  }),
});
export type WorkspaceInfo = z.infer<typeof WorkspaceInfo>;

export const workspaceContract = {
  'workspace.info': query({
    summary: 'Which workspace file is open, its schema version, size and row counts.',
    input: z.object({}).default({}),
    output: WorkspaceInfo,
  }),
} as const;
