import { prepareCached, type ReadDb, type WriteDb } from '../../db/sqlite';
import { endpointsRepo, type EndpointRow } from '../../endpoints/endpoints.repo';
import type { Judge } from './judge-check';
import { cachedJudge } from './judge-cache';

/**
 * The workspace's judge: the name of a configured endpoint (Settings → Judge, `coworkenv grade --set-judge`), kept
 * in workspace_meta under this key. Only the name: the key stays in the keychain or the environment.
 */
const KEY = 'judge_endpoint';

export const judgeEndpointName = (db: ReadDb): string | null =>
  (prepareCached(db, 'SELECT value FROM workspace_meta WHERE key = ?').get(KEY) as { value: string } | undefined)
    ?.value ?? null;

/** The configured judge's endpoint row; null when none is set or the endpoint was removed since. */
export function judgeEndpoint(db: ReadDb, name = judgeEndpointName(db)): EndpointRow | null {
  return name === null ? null : (endpointsRepo(db).get(name) ?? null);
}

/** The judge grade() reads (its cache, no call); undefined without a usable judge endpoint: checks are pending. */
export function configuredJudge(db: ReadDb): Judge | undefined {
  const e = judgeEndpoint(db);
  return e ? cachedJudge(db, e.model) : undefined;
}

export function setJudgeEndpoint(db: WriteDb, name: string | null): void {
  if (name === null) prepareCached(db, 'DELETE FROM workspace_meta WHERE key = ?').run(KEY);
  else
    prepareCached(
      db,
      'INSERT INTO workspace_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(KEY, name);
}
