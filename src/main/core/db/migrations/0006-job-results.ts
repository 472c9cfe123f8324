import type { Db } from '../sqlite';

export const name = '0006-job-results';

/** A finished job keeps what it produced (its procedure's `result`), so callers stop re-deriving it. */
export function up(db: Db): void {
  db.exec('ALTER TABLE jobs ADD COLUMN result TEXT');
}
