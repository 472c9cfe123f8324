import type { Db, ReadDb } from './sqlite';
import { APPLICATION_ID } from './sqlite';
import { MIGRATIONS } from './migrations';
import { WorkspaceError } from '../lib/errors';

export const SCHEMA_VERSION = MIGRATIONS.length;

export function schemaVersion(db: Db | ReadDb): number {
  return (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
}

/**
 * Brings a workspace to the app's schema, one transaction per migration (a failure leaves the
 * workspace at the last good version). Refuses a workspace written by a newer app: migrating it
 * down or ignoring columns we don't know would lose the user's data.
 */
export function migrate(db: Db, file: string, upTo = SCHEMA_VERSION, readOnly = false): number {
  const current = schemaVersion(db);
  if (current > SCHEMA_VERSION) {
    throw new WorkspaceError(
      `${file} was written by a newer CoworkEnv Studio (schema ${current}; this app knows up to ${SCHEMA_VERSION}). ` +
        `Update the app to open it.`,
    );
  }
  if (current < upTo && readOnly) {
    throw new WorkspaceError(
      `${file} is read-only and needs an upgrade from schema ${current} to ${upTo}; ` +
        'make it writable once to upgrade it',
    );
  }
  for (let v = current; v < upTo; v++) {
    const m = MIGRATIONS[v]!;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${v + 1}`);
      if (v === 0) db.pragma(`application_id = ${APPLICATION_ID}`);
    })();
  }
  return schemaVersion(db);
}
