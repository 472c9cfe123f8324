import type { ReadDb, WriteDb } from './db/sqlite';
import type { CoreEvents } from './events/core-events';
import type { KeyAccess, SecretStore } from './endpoints/key-store';
import type { JobRunner } from './jobs/job-runner';
import type { Logger } from './logger';

export type Clock = () => Date;

export type CoreConfig = {
  /** Workspace file; ':memory:' for tests that need no file. */
  workspacePath: string;
  clock?: Clock;
  logger?: Logger;
  /** Electron-ABI better-sqlite3 binding when running inside Electron (stack.md). */
  nativeBinding?: string;
  /** The built job worker script; defaults to job-worker.js beside the bundle. */
  workerEntry?: string;
  /** Extra Node flags for job workers (tests load TypeScript workers through tsx). */
  workerExecArgv?: string[];
  /** How long a write waits for another process's lock before answering BUSY, in ms (default 5000). */
  busyTimeoutMs?: number;
  /** How long a job's write keeps waiting for another process's lock before the job fails, in ms (default 60 s). */
  jobBusyWaitMs?: number;
  /** How often to look for commits made by other processes (CLI, workers), in ms; 0 turns it off. */
  watchIntervalMs?: number;
  /** Where endpoints' keychain keys live: the desktop app's safeStorage; none in the CLI and browser mode. */
  secrets?: SecretStore;
  /** The environment endpoint keys are read from (default process.env; the CLI passes its own). */
  env?: Readonly<Record<string, string | undefined>>;
};

type BaseContext = {
  now(): string;
  logger: Logger;
  workspacePath: string;
  readOnly: boolean;
  events: CoreEvents;
  jobs: JobRunner;
  /** Resolves endpoint keys (never stored in the workspace): the keychain store and the environment. */
  keys: KeyAccess;
};

/** What a query (or a job start) gets: a connection that only reads. */
export type QueryContext = BaseContext & { db: ReadDb };

/** What a mutation gets: the connection inside the dispatcher's one write transaction. */
export type MutationContext = BaseContext & {
  db: WriteDb;
  /** Record that this mutation changed `table` (emitted as table.changed after commit). */
  touch(table: string, ids?: number[]): void;
};
