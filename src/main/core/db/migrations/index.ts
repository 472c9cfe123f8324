import type { Db } from '../sqlite';
import * as m0001 from './0001-init';

export type Migration = { name: string; up(db: Db): void };

/** Ordered; a workspace's PRAGMA user_version is the number of these it has applied. Append only. */
export const MIGRATIONS: readonly Migration[] = [m0001];
