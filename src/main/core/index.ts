import fs from 'node:fs';
import path from 'node:path';
import type { CoreConfig } from './context';
import { migrate, SCHEMA_VERSION } from './db/migrate';
import { isReadOnlyFile, openDb, readHandle, writeHandle } from './db/sqlite';
import { curationDirty, settleCuration } from './curation/settle';
import { CoreEvents } from './events/core-events';
import { watchExternalChanges } from './events/change-watcher';
import { JobRunner } from './jobs/job-runner';
import { redactingLogger, silentLogger } from './logger';
import { createDispatch, type Dispatch } from './rpc/dispatch';
import { JOB_DEFINITIONS } from './rpc/job-registry';
import { AppError, WorkspaceError } from './lib/errors';
import { seedNewWorkspace } from './workspace/seed';
import type { Environment } from './services/environment';
import { environmentOfStoredTask } from './tasks/task-spec-of';
import { tasksRepo } from './tasks/tasks.repo';
import { endpointsRepo } from './endpoints/endpoints.repo';
import { registerConfiguredKeys } from './endpoints/key-store';

export type Core = {
  dispatch: Dispatch;
  events: CoreEvents;
  workspacePath: string;
  /** True when this call created the workspace (first start); false when it opened an existing one. */
  created: boolean;
  /** A fresh environment of a stored task's services (for `coworkenv services serve`); undefined if no such task. */
  taskEnvironment(taskId: string, clock: Date | undefined, mode?: 'parity' | 'fixed'): Environment | undefined;
  close(): Promise<void>;
};

export type CreateCoreOptions = CoreConfig & {
  /** Fill a brand-new workspace with the demo plan (the desktop app and `npm start` do). */
  seedDemo?: boolean;
  /** Validate every output against the contract (tests). */
  checkOutput?: boolean;
};

/**
 * Opens (or creates) a workspace and returns the core. Throws WorkspaceError when the file cannot
 * be used; the file is left as it was.
 */
export function createCore(config: CreateCoreOptions): Core {
  const clock = config.clock ?? (() => new Date());
  // Whatever logger the host gives, nothing a handler logs may carry a key.
  const logger = config.logger ? redactingLogger(config.logger) : silentLogger;
  const file = config.workspacePath === ':memory:' ? ':memory:' : path.resolve(config.workspacePath);
  if (file !== ':memory:') {
    const dir = path.dirname(file);
    if (!fs.existsSync(dir)) fs.mkdirSync(dir, { recursive: true });
  }
  const readOnly = isReadOnlyFile(file);
  const db = openDb(file, {
    readOnly,
    knownSchema: SCHEMA_VERSION,
    ...(config.quickCheckMaxBytes !== undefined ? { quickCheckMaxBytes: config.quickCheckMaxBytes } : {}),
    ...(config.busyTimeoutMs !== undefined ? { busyTimeoutMs: config.busyTimeoutMs } : {}),
    ...(config.nativeBinding ? { nativeBinding: config.nativeBinding } : {}),
  });
  let created = false;
  try {
    // Whether the file is new is decided under the write lock (migrate, seed), never from its
    // existence beforehand: another process may be creating it right now. For the same reason a
    // failure here never deletes the file: others may already hold it open with their writes in it.
    migrate(db, file, undefined, readOnly);
    if (!readOnly) created = seedNewWorkspace(db, clock().toISOString(), config.seedDemo ?? false);
    // Tasks migration 0011 marked dirty get their statistics before anything reads them. Every commit
    // empties the list, so an ordinary open only reads: it must not wait for another writer's lock.
    if (!readOnly && curationDirty(readHandle(db)))
      db.transaction(() => settleCuration(writeHandle(db), clock().toISOString())).immediate();
  } catch (err) {
    db.close();
    throw err instanceof AppError
      ? err
      : new WorkspaceError(`cannot prepare workspace ${file}: ${(err as Error).message}`);
  }
  const events = new CoreEvents();
  const keys = { secrets: config.secrets ?? null, env: config.env ?? process.env };
  // Redacted wherever this process writes or answers text (a server may echo the key it was sent).
  registerConfiguredKeys(endpointsRepo(readHandle(db)).list(), keys);
  const now = () => clock().toISOString();
  const jobs = new JobRunner({
    db,
    definitions: JOB_DEFINITIONS,
    keys,
    workspacePath: file,
    events,
    logger,
    now,
    clockOffsetMs: clock().getTime() - Date.now(),
    ...(config.workerEntry ? { workerEntry: config.workerEntry } : {}),
    ...(config.workerExecArgv ? { workerExecArgv: config.workerExecArgv } : {}),
    ...(config.nativeBinding ? { nativeBinding: config.nativeBinding } : {}),
    ...(config.busyTimeoutMs !== undefined ? { busyTimeoutMs: config.busyTimeoutMs } : {}),
    ...(config.jobBusyWaitMs !== undefined ? { busyWaitMs: config.jobBusyWaitMs } : {}),
  });
  const stopWatching = file === ':memory:' ? () => {} : watchExternalChanges(db, events, config.watchIntervalMs ?? 300);
  const dispatch = createDispatch(
    { db, now, logger, workspacePath: file, readOnly, events, jobs, keys },
    { checkOutput: config.checkOutput ?? false },
  );
  logger.info('workspace opened', { path: file, readOnly });
  return {
    dispatch,
    events,
    workspacePath: file,
    created,
    taskEnvironment(taskId, clock, mode = 'parity') {
      return environmentOfStoredTask(tasksRepo(readHandle(db)), taskId, { clock, mode });
    },
    async close() {
      stopWatching();
      await jobs.close();
      if (db.open) db.close();
    },
  };
}
