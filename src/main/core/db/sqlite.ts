import fs from 'node:fs';
import Database from 'better-sqlite3';
import { AppError, WorkspaceError } from '../lib/errors';
import {
  APPLICATION_ID,
  companionsPresent,
  damaged,
  foreignDatabase,
  newerWorkspace,
  notAWorkspace,
  readHeader,
  removeCompanionsWeMade,
  sleepSync,
} from './workspace-file';

/** The raw connection: only db/, the dispatcher, the job worker and start-up code hold it. */
export type Db = Database.Database;

declare const handle: unique symbol;
type Statement = Database.Statement<unknown[]>;
/** A statement that cannot write (no `run`). */
export type ReadStatement = Omit<Statement, 'run'>;
/**
 * The connection as a query sees it: statements that only read. Same object as the raw connection,
 * narrowed by type, so a query handler cannot write outside the dispatcher's transaction — the one
 * place that checks read-only workspaces and announces changes.
 */
export interface ReadDb {
  readonly [handle]: 'read' | 'write';
  readonly open: boolean;
  prepare(sql: string): ReadStatement;
}
/** The connection inside a write transaction (a mutation handler, a job's committed batch). */
export interface WriteDb extends ReadDb {
  readonly [handle]: 'write';
  prepare(sql: string): Statement;
}
/** Narrowings for the owners of the connection; nobody else converts handles. */
export const readHandle = (db: Db): ReadDb => db as unknown as ReadDb;
export const writeHandle = (db: Db): WriteDb => db as unknown as WriteDb;

export { APPLICATION_ID } from './workspace-file';

export type OpenOptions = {
  /** Electron loads an Electron-ABI build of better-sqlite3 through this (reference/stack.md). */
  nativeBinding?: string;
  /** Open without writing anything (workers never need it; read-only files force it). */
  readOnly?: boolean;
  /** How long a statement waits for another connection's lock before SQLITE_BUSY (default 5 s). */
  busyTimeoutMs?: number;
  /** Refuse, before SQLite touches it, a workspace whose header says it is newer than this schema. */
  knownSchema?: number;
  /** Run PRAGMA quick_check and refuse a damaged file (default true; job workers skip it). */
  check?: boolean;
};

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

const isBusy = (err: unknown) => /^SQLITE_BUSY/.test((err as { code?: string }).code ?? '');

/**
 * A file whose write bits are all cleared counts as read-only even for root (who may write it
 * anyway): the user marked it so, and we must not change it behind their back.
 */
export function isReadOnlyFile(file: string): boolean {
  if (file === ':memory:' || !fs.existsSync(file)) return false;
  const st = fs.statSync(file);
  if ((st.mode & 0o222) === 0) return true;
  try {
    fs.accessSync(file, fs.constants.W_OK);
    return false;
  } catch {
    return true;
  }
}

const statementCache = new WeakMap<object, Map<string, Statement>>();
/** Grid queries vary with their filters; past this many texts a connection's cache starts over. */
const STATEMENT_CACHE_MAX = 256;

/**
 * db.prepare, cached per connection by SQL text. Preparing costs more than running a one-row
 * query (bench/transport.bench.ts), so hot paths reuse statements. Use only with .get/.all/.run in
 * the default mode: never toggle pluck/raw/expand on a statement from here, every caller shares it.
 */
export function prepareCached(db: WriteDb | Db, sql: string): Statement;
export function prepareCached(db: ReadDb, sql: string): ReadStatement;
export function prepareCached(db: ReadDb | WriteDb | Db, sql: string): Statement {
  let cache = statementCache.get(db);
  if (!cache) statementCache.set(db, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) {
    if (cache.size >= STATEMENT_CACHE_MAX) cache.clear();
    stmt = (db as Db).prepare<unknown[]>(sql);
    cache.set(sql, stmt);
  }
  return stmt;
}

/**
 * Opens a workspace file with our pragmas, or throws a WorkspaceError that names the file and what
 * is wrong. A refused file is left as it was: no -wal, -shm or -journal beside it.
 */
export function openDb(file: string, opts: OpenOptions = {}): Db {
  const memory = file === ':memory:';
  const header = memory ? undefined : readHeader(file);
  if (header) {
    if (!header.sqlite) throw notAWorkspace(file);
    if (header.applicationId !== APPLICATION_ID && header.applicationId !== 0)
      throw foreignDatabase(file, header.applicationId);
    if (opts.knownSchema !== undefined && header.userVersion > opts.knownSchema)
      throw newerWorkspace(file, header.userVersion, opts.knownSchema);
  }
  const before = memory ? new Set<string>() : companionsPresent(file);
  let db: Db;
  try {
    db = new Database(file, {
      readonly: opts.readOnly ?? false,
      fileMustExist: opts.readOnly ?? false,
      timeout: opts.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
      ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}),
    });
  } catch (err) {
    throw new WorkspaceError(`cannot open workspace ${file}: ${(err as Error).message}`);
  }
  try {
    // The first read is where SQLite notices a file that is not a database. One read transaction:
    // another process creating this file commits the tables and the application id together.
    const { appId, tables } = db.transaction(() => ({
      appId: db.pragma('application_id', { simple: true }) as number,
      tables: db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as { n: number },
    }))();
    if (appId !== APPLICATION_ID && (appId !== 0 || tables.n > 0)) throw foreignDatabase(file, appId);
    if (header && opts.check !== false) quickCheck(db, file);
    db.pragma('foreign_keys = ON');
    if (!opts.readOnly && !memory) switchToWal(db, opts.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS);
    db.pragma('synchronous = NORMAL');
    return db;
  } catch (err) {
    db.close();
    const code = (err as { code?: string }).code;
    const refused =
      err instanceof WorkspaceError
        ? err
        : code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT'
          ? header?.applicationId === APPLICATION_ID
            ? damaged(file, (err as Error).message)
            : notAWorkspace(file)
          : undefined;
    if (refused) {
      if (!memory) removeCompanionsWeMade(file, before);
      throw refused;
    }
    if (isBusy(err)) throw busy(file, opts.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS);
    throw new WorkspaceError(`cannot open workspace ${file}: ${(err as Error).message}`);
  }
}

const busy = (file: string, ms: number) =>
  new AppError(
    'BUSY',
    `the workspace ${file} is busy with another process's write (waited ${ms / 1000} s for its lock); try again`,
  );

/**
 * PRAGMA quick_check: page structure, record formats, NOT NULL and STRICT types — everything
 * integrity_check does except index contents. Linear in the file size (see README: ~N ms per 100k
 * slots). SQLite may throw SQLITE_CORRUPT instead of answering rows on badly damaged pages.
 */
function quickCheck(db: Db, file: string): void {
  let rows: { quick_check: string }[];
  try {
    rows = db.pragma('quick_check(5)') as { quick_check: string }[];
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') throw damaged(file, (err as Error).message);
    throw err;
  }
  if (rows.length !== 1 || rows[0]!.quick_check !== 'ok') throw damaged(file, problems(rows.map((r) => r.quick_check)));
}

/** quick_check's findings on one line: the first two, without its "*** in database main ***" banner. */
const problems = (rows: string[]) => {
  const lines = rows.flatMap((r) => r.split('\n')).filter((l) => l.trim() && !l.startsWith('***'));
  return lines.slice(0, 2).join('; ') + (lines.length > 2 ? `; and ${lines.length - 2} more` : '');
};

/**
 * Switches to WAL (persistent: a workspace already in WAL needs no lock). SQLite answers BUSY at
 * once, without the busy handler, when another process holds the file during the switch — two
 * first starts at once — so wait and retry here, up to the busy timeout.
 */
function switchToWal(db: Db, timeoutMs: number): void {
  if (db.pragma('journal_mode', { simple: true }) === 'wal') return;
  const deadline = Date.now() + timeoutMs;
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if (!isBusy(err) || Date.now() > deadline) throw err;
      sleepSync(wait);
    }
  }
}
