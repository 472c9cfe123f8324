import fs from 'node:fs';
import path from 'node:path';
import type { CoreConfig } from './context';
import { migrate } from './db/migrate';
import { isReadOnlyFile, openDb, readHandle, writeHandle } from './db/sqlite';
import { settleCuration } from './curation/settle';
import { CoreEvents } from './events/core-events';
import { watchExternalChanges } from './events/change-watcher';
import { JobRunner } from './jobs/job-runner';
import { redactingLogger, silentLogger } from './logger';
import { createDispatch, type Dispatch } from './rpc/dispatch';
import { WorkspaceError } from './lib/errors';
import { seedNewWorkspace } from './workspace/seed';
import type { Environment } from './services/environment';
import { environmentOfStoredTask } from './tasks/task-spec-of';
import { tasksRepo } from './tasks/tasks.repo';

export type Core = {
  dispatch: Dispatch;
  events: CoreEvents;
  workspacePath: string;
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
  // An empty file (touch, a failed earlier create) is a new workspace too: nothing in it to lose.
  const isNew = file === ':memory:' || !fs.existsSync(file) || fs.statSync(file).size === 0;
  if (isNew && file !== ':memory:') {
    const dir = path.dirname(file);
    if (!fs.existsSync(dir)) fs.mkdirSync(dir, { recursive: true });
  }
  const readOnly = isReadOnlyFile(file);
  const db = openDb(file, { readOnly, ...(config.nativeBinding ? { nativeBinding: config.nativeBinding } : {}) });
  try {
    migrate(db, file, undefined, readOnly);
    if (isNew) seedNewWorkspace(db, clock().toISOString(), config.seedDemo ?? false);
    // Tasks migration 0011 marked dirty get their statistics before anything reads them.
    if (!readOnly) db.transaction(() => settleCuration(writeHandle(db), clock().toISOString())).immediate();
  } catch (err) {
    db.close();
    if (isNew && file !== ':memory:')
      for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    throw err instanceof WorkspaceError
      ? err
      : new WorkspaceError(`cannot prepare workspace ${file}: ${(err as Error).message}`);
  }
  const events = new CoreEvents();
  const keys = { secrets: config.secrets ?? null, env: config.env ?? process.env };
  const now = () => clock().toISOString();
  const jobs = new JobRunner({
    db,
    keys,
    workspacePath: file,
    events,
    logger,
    now,
    clockOffsetMs: clock().getTime() - Date.now(),
    ...(config.workerEntry ? { workerEntry: config.workerEntry } : {}),
    ...(config.workerExecArgv ? { workerExecArgv: config.workerExecArgv } : {}),
    ...(config.nativeBinding ? { nativeBinding: config.nativeBinding } : {}),
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
