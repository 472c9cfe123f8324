import { parentPort } from 'node:worker_threads';
import { openDb, readHandle, type ReadDb } from '../db/sqlite';
import { sftPreviewOf } from '../export/workspace/sft-preview';
import { AppError } from '../lib/errors';
import type { HelperEnv } from './job-definition';

/** Queries that may take seconds on a large workspace, run in a query worker (off-thread.ts) instead of the core's. */
export const OFF_THREAD_QUERIES = {
  'export.sftPreview': sftPreviewOf,
} satisfies Record<string, (db: ReadDb, input: never) => unknown>;
export type OffThreadName = keyof typeof OFF_THREAD_QUERIES;

export type QueryRequest = { id: number; name: OffThreadName; input: unknown };
export type QueryReply =
  | { id: number; ok: true; data: unknown }
  | { id: number; ok: false; error: { code: string; message: string } };

/**
 * A query worker's body: its own read-only connection (WAL: it reads while the core and jobs write), one request
 * at a time, each in a read transaction so its passes see one snapshot of the workspace. Lives until terminated.
 */
export function queryHelperMain(_data: unknown, env: HelperEnv): void {
  const db = openDb(env.workspacePath, {
    readOnly: true,
    check: false,
    ...(env.nativeBinding ? { nativeBinding: env.nativeBinding } : {}),
  });
  parentPort!.on('message', (m: QueryRequest) => {
    let reply: QueryReply;
    try {
      db.exec('BEGIN');
      try {
        const run = OFF_THREAD_QUERIES[m.name] as (db: ReadDb, input: unknown) => unknown;
        reply = { id: m.id, ok: true, data: run(readHandle(db), m.input) };
      } finally {
        db.exec('COMMIT');
      }
    } catch (err) {
      const code = err instanceof AppError ? err.code : ((err as { code?: string }).code ?? 'INTERNAL');
      reply = { id: m.id, ok: false, error: { code, message: (err as Error).message } };
    }
    parentPort!.postMessage(reply);
  });
}
