import { createHash } from 'node:crypto';
import { prepareCached, type ReadDb, type WriteDb } from '../../db/sqlite';
import { runsWriter } from '../../runs/runs.repo';

/** Where an import file's reading goes on (committed with each batch). */
export type FilePosition = {
  offset: number;
  line: number;
  record: number;
  /** τ²-bench results: the simulations array's byte range and first line, once the header was read. */
  stream?: { start: number; end: number; line: number };
  contextId?: number;
};

export type RunFile = {
  idx: number;
  path: string;
  format: string | null;
  collection: string;
  size: number;
  mtime_ms: number;
  position: FilePosition;
  records: number;
  stored: number;
  duplicates: number;
  refused: number;
  warned: number;
  finished: boolean;
  error: string | null;
};

export type FileDelta = {
  position: FilePosition;
  records: number;
  stored: number;
  duplicates: number;
  refused: number;
  /** Of the stored: records with warnings. */
  warned?: number;
  finished?: boolean;
  error?: string | null;
};

const START: FilePosition = { offset: 0, line: 1, record: 0 };

/**
 * An import's files (run_files: where each file's reading goes on, its counts) and the contexts its
 * records share (trajectory_contexts: a τ² header, a `--tools` set, stored once per content). The run
 * row itself is runs/runs.repo.ts's.
 */
export function importFilesRepo(db: ReadDb) {
  return {
    files(runId: number): RunFile[] {
      const rows = prepareCached(db, 'SELECT * FROM run_files WHERE run_id = ? ORDER BY idx').all(runId) as (Omit<
        RunFile,
        'position' | 'finished'
      > & { position: string; finished: number })[];
      return rows.map((r) => ({ ...r, position: { ...START, ...JSON.parse(r.position) }, finished: r.finished === 1 }));
    },
    context(id: number): Record<string, unknown> | null {
      const r = prepareCached(db, 'SELECT content FROM trajectory_contexts WHERE id = ?').get(id) as
        | { content: string }
        | undefined;
      return r ? (JSON.parse(r.content) as Record<string, unknown>) : null;
    },
  };
}

export function importFilesWriter(db: WriteDb) {
  return {
    ...importFilesRepo(db),
    addFiles(runId: number, files: readonly NewRunFile[]): void {
      const add = prepareCached(
        db,
        'INSERT INTO run_files (run_id, idx, path, format, collection, size, mtime_ms, error) VALUES (?, ?, ?, ?, ' +
          '?, ?, ?, ?)',
      );
      files.forEach((f, idx) => add.run(runId, idx, f.path, f.format, f.collection, f.size, f.mtimeMs, f.error));
    },
    /** Advances a file's position and counts (and its run's counters), in the batch that stored those records. */
    advanceFile(runId: number, idx: number, d: FileDelta): void {
      prepareCached(
        db,
        `UPDATE run_files SET position = ?, records = records + ?, stored = stored + ?, duplicates = duplicates + ?,
           refused = refused + ?, warned = warned + ?, finished = max(finished, ?), error = coalesce(?, error)
         WHERE run_id = ? AND idx = ?`,
      ).run(
        JSON.stringify(d.position),
        d.records,
        d.stored,
        d.duplicates,
        d.refused,
        d.warned ?? 0,
        d.finished ? 1 : 0,
        d.error ?? null,
        runId,
        idx,
      );
      runsWriter(db).count(runId, { planned: d.records, stored: d.stored, skipped: d.duplicates, failed: d.refused });
    },
    /** A file's context (τ² header), stored once per content. */
    saveContext(format: string, content: string): number {
      const hash = createHash('sha256').update(content).digest('hex');
      prepareCached(
        db,
        'INSERT INTO trajectory_contexts (format, hash, content) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING',
      ).run(format, hash, content);
      return (prepareCached(db, 'SELECT id FROM trajectory_contexts WHERE hash = ?').get(hash) as { id: number }).id;
    },
  };
}

export type NewRunFile = {
  path: string;
  format: string | null;
  collection: string;
  size: number;
  mtimeMs: number;
  error: string | null;
};
