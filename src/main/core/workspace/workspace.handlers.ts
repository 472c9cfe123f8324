import fs from 'node:fs';
import type { HandlerMap } from '../lib/handler-types';
import { SCHEMA_VERSION, schemaVersion } from '../db/migrate';
import { slotsRepo } from '../plan/slots.repo';
import { prepareCached } from '../db/sqlite';
import { jobsRepo } from '../jobs/jobs.repo';

export const workspaceHandlers = {
  'workspace.info': (_input, ctx) => {
    // Table names are fixed here, never from input.
    const n = (table: string) => (prepareCached(ctx.db, `SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const size = ctx.workspacePath === ':memory:' ? 0 : fs.statSync(ctx.workspacePath).size;
    const created = prepareCached(ctx.db, "SELECT value FROM workspace_meta WHERE key = 'created_at'").get() as
      | { value: string }
      | undefined;
    return {
      path: ctx.workspacePath,
      schemaVersion: schemaVersion(ctx.db),
      appSchemaVersion: SCHEMA_VERSION,
      readOnly: ctx.readOnly,
      sizeBytes: size,
      journalMode: String((ctx.db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode),
      createdAt: created?.value ?? '',
      counts: {
        slots: slotsRepo(ctx.db).count(),
        jobs: jobsRepo(ctx.db).count(),
        tasks: n('tasks'),
        taskVersions: n('task_versions'),
        validationReports: n('validation_reports'),
        trajectories: n('trajectories'),
      },
    };
  },
} satisfies Partial<HandlerMap>;
