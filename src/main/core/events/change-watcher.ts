import type { Db } from '../db/sqlite';
import type { CoreEvents } from './core-events';

/**
 * Notices commits made by other connections (the CLI, another window, job workers) and emits
 * table.changed for the tables whose counter moved. PRAGMA data_version changes only for other
 * connections' commits, so our own mutations (already announced) are not announced twice.
 */
export function watchExternalChanges(db: Db, events: CoreEvents, intervalMs: number): () => void {
  if (intervalMs <= 0) return () => {};
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const versions = db.prepare('SELECT table_name, version FROM table_versions');
  const read = () =>
    new Map((versions.all() as { table_name: string; version: number }[]).map((r) => [r.table_name, r.version]));
  let lastData = dataVersion.get() as number;
  let known = read();
  const timer = setInterval(() => {
    if (!db.open) return;
    const dv = dataVersion.get() as number;
    if (dv === lastData) return;
    lastData = dv;
    const now = read();
    for (const [table, v] of now) if (known.get(table) !== v) events.emit('table.changed', { table });
    known = now;
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Called inside a write transaction for each table it touched. */
export function bumpTableVersion(db: Db, table: string): void {
  db.prepare(
    'INSERT INTO table_versions (table_name, version) VALUES (?, 1) ' +
      'ON CONFLICT (table_name) DO UPDATE SET version = version + 1',
  ).run(table);
}
