import type { Db, ReadDb } from './sqlite';
import { APPLICATION_ID, newerWorkspace } from './workspace-file';
import { MIGRATIONS } from './migrations';
import { WorkspaceError } from '../lib/errors';

export const SCHEMA_VERSION = MIGRATIONS.length;

export function schemaVersion(db: Db | ReadDb): number {
  return (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
}

const newer = (file: string, v: number) => newerWorkspace(file, v, SCHEMA_VERSION);

/**
 * Brings a workspace to the app's schema, one transaction per migration (a failure leaves the
 * workspace at the last good version). Refuses a workspace written by a newer app: migrating it
 * down or ignoring columns we don't know would lose the user's data.
 *
 * Hazard: two processes may open a new file at once (two CLIs, `serve` and a CLI). Each migration
 * runs in an IMMEDIATE transaction that reads the version again under the write lock, so the one
 * that waited finds the work done instead of running a migration twice ("table already exists").
 */
export function migrate(db: Db, file: string, upTo = SCHEMA_VERSION, readOnly = false): number {
  const current = schemaVersion(db);
  if (current > SCHEMA_VERSION) throw newer(file, current);
  if (current >= upTo) return current;
  if (readOnly) {
    throw new WorkspaceError(
      `${file} is read-only and needs an upgrade from schema ${current} to ${upTo}; ` +
        'make it writable once to upgrade it',
    );
  }
  const step = db.transaction((): boolean => {
    const v = schemaVersion(db);
    if (v > SCHEMA_VERSION) throw newer(file, v);
    if (v >= upTo) return false;
    MIGRATIONS[v]!.up(db);
    db.pragma(`user_version = ${v + 1}`);
    if (v === 0) db.pragma(`application_id = ${APPLICATION_ID}`);
    return true;
  });
  while (step.immediate()) {}
  return schemaVersion(db);
}
