import fs from 'node:fs';
import Database from 'better-sqlite3';
import { WorkspaceError } from '../lib/errors';

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

/** 'CEWS' — marks a file as a CoworkEnv workspace so we never migrate someone else's database. */
export const APPLICATION_ID = 0x43455753;

export type OpenOptions = {
  /** Electron loads an Electron-ABI build of better-sqlite3 through this (reference/stack.md). */
  nativeBinding?: string;
  /** Open without writing anything (workers never need it; read-only files force it). */
  readOnly?: boolean;
};

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

/** Opens a workspace file with our pragmas, or throws a WorkspaceError that names the file and what is wrong. */
export function openDb(file: string, opts: OpenOptions = {}): Db {
  if (file !== ':memory:' && fs.existsSync(file) && fs.statSync(file).isDirectory()) {
    throw new WorkspaceError(`${file} is a directory, not a workspace file`);
  }
  let db: Db;
  try {
    db = new Database(file, {
      readonly: opts.readOnly ?? false,
      fileMustExist: opts.readOnly ?? false,
      ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}),
    });
  } catch (err) {
    throw new WorkspaceError(`cannot open workspace ${file}: ${(err as Error).message}`);
  }
  try {
    // The first read is where SQLite notices a file that is not a database.
    const appId = db.pragma('application_id', { simple: true }) as number;
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as { n: number };
    if (appId !== APPLICATION_ID && (appId !== 0 || tables.n > 0)) {
      throw new WorkspaceError(`${file} is an SQLite database but not a CoworkEnv workspace (application_id ${appId})`);
    }
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    if (!opts.readOnly && file !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    return db;
  } catch (err) {
    db.close();
    if (err instanceof WorkspaceError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw new WorkspaceError(
        `${file} is not a CoworkEnv workspace: the file is not an SQLite database or is corrupted`,
      );
    }
    throw new WorkspaceError(`cannot open workspace ${file}: ${(err as Error).message}`);
  }
}
