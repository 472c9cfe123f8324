import { EndpointTestResult, type Endpoint, type KeySource } from '../../../shared/contract/endpoints.contract';
import { prepareCached, type ReadDb, type WriteDb } from '../db/sqlite';
import { keyStatus, type KeyAccess } from './key-store';

/** An endpoint as stored: no key material, by construction (there is no column for one). */
export type EndpointRow = {
  name: string;
  base_url: string;
  model: string;
  key_source: KeySource;
  key_env: string | null;
  temperature: number | null;
  max_tokens: number | null;
  timeout_ms: number;
  json_mode: boolean | null;
  tool_calls: boolean | null;
  last_test: EndpointTestResult | null;
  created_at: string;
  updated_at: string;
};

type Raw = Omit<EndpointRow, 'json_mode' | 'tool_calls' | 'last_test'> & {
  json_mode: number | null;
  tool_calls: number | null;
  last_test: string | null;
};

const COLUMNS =
  'name, base_url, model, key_source, key_env, temperature, max_tokens, timeout_ms, json_mode, tool_calls, ' +
  'last_test, created_at, updated_at';

const bool = (v: number | null) => (v === null ? null : v === 1);
const int = (v: boolean | null) => (v === null ? null : v ? 1 : 0);

function fromRaw(r: Raw): EndpointRow {
  // A last_test written by an older app that no longer parses is dropped, not fatal.
  const test = r.last_test === null ? null : EndpointTestResult.safeParse(JSON.parse(r.last_test));
  return {
    ...r,
    json_mode: bool(r.json_mode),
    tool_calls: bool(r.tool_calls),
    last_test: test?.success ? test.data : null,
  };
}

/** What every transport shows: the row plus where its key is looked for and whether it is there. */
export const endpointView = (e: EndpointRow, keys: KeyAccess): Endpoint => ({ ...e, key: keyStatus(e, keys) });

export function endpointsRepo(db: ReadDb) {
  return {
    list(): EndpointRow[] {
      return (prepareCached(db, `SELECT ${COLUMNS} FROM endpoints ORDER BY name COLLATE NOCASE`).all() as Raw[]).map(
        fromRaw,
      );
    },
    /** By name, case-insensitively (names are unique regardless of case). */
    get(name: string): EndpointRow | undefined {
      const r = prepareCached(db, `SELECT ${COLUMNS} FROM endpoints WHERE name = ?`).get(name) as Raw | undefined;
      return r ? fromRaw(r) : undefined;
    },
  };
}

export function endpointsWriter(db: WriteDb) {
  return {
    insert(e: EndpointRow): void {
      prepareCached(db, `INSERT INTO endpoints (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
        ...values(e),
      );
    },
    /** Replaces every field of the endpoint called `e.name`. */
    update(e: EndpointRow): void {
      prepareCached(
        db,
        `UPDATE endpoints SET base_url = ?, model = ?, key_source = ?, key_env = ?, temperature = ?, max_tokens = ?,
         timeout_ms = ?, json_mode = ?, tool_calls = ?, last_test = ?, updated_at = ? WHERE name = ?`,
      ).run(...values(e).slice(1, 11), e.updated_at, e.name);
    },
    remove(name: string): boolean {
      return prepareCached(db, 'DELETE FROM endpoints WHERE name = ?').run(name).changes > 0;
    },
  };
}

function values(e: EndpointRow) {
  return [
    e.name,
    e.base_url,
    e.model,
    e.key_source,
    e.key_env,
    e.temperature,
    e.max_tokens,
    e.timeout_ms,
    int(e.json_mode),
    int(e.tool_calls),
    e.last_test ? JSON.stringify(e.last_test) : null,
    e.created_at,
    e.updated_at,
  ] as const;
}
