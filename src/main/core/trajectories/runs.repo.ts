import type { ScoreBasis } from './score-basis';
import { createHash } from 'node:crypto';
import type { ImportIssue } from '../../../shared/contract/entities/trajectory-row';
import { prepareCached, type ReadDb, type WriteDb } from '../db/sqlite';

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

/** Where an import's `--tools` schemas are kept: a trajectory context (stored once per content) and what it was. */
export type RunToolSchemas = { contextId: number; file: string; sha256: string; tools: number };

const START: FilePosition = { offset: 0, line: 1, record: 0 };

/** Runs (imports and, next, agent runs), their files and issues: reads. */
export function runsRepo(db: ReadDb) {
  return {
    byJob(jobId: string): { id: number; state: string } | undefined {
      return prepareCached(db, 'SELECT id, state FROM runs WHERE job_id = ?').get(jobId) as
        | { id: number; state: string }
        | undefined;
    },
    run(id: number) {
      return prepareCached(db, 'SELECT * FROM runs WHERE id = ?').get(id) as
        | { id: number; planned: number; stored: number; skipped: number; failed: number }
        | undefined;
    },
    files(runId: number): RunFile[] {
      const rows = prepareCached(db, 'SELECT * FROM run_files WHERE run_id = ? ORDER BY idx').all(runId) as (Omit<
        RunFile,
        'position' | 'finished'
      > & { position: string; finished: number })[];
      return rows.map((r) => ({ ...r, position: { ...START, ...JSON.parse(r.position) }, finished: r.finished === 1 }));
    },
    issues(runId: number, offset: number, limit: number): ImportIssue[] {
      return prepareCached(
        db,
        'SELECT file, line, record, message FROM run_issues WHERE run_id = ? ORDER BY id LIMIT ? OFFSET ?',
      ).all(runId, limit, offset) as ImportIssue[];
    },
    issueCount(runId: number): number {
      return (prepareCached(db, 'SELECT count(*) AS n FROM run_issues WHERE run_id = ?').get(runId) as { n: number }).n;
    },
    context(id: number): Record<string, unknown> | null {
      const r = prepareCached(db, 'SELECT content FROM trajectory_contexts WHERE id = ?').get(id) as
        | { content: string }
        | undefined;
      return r ? (JSON.parse(r.content) as Record<string, unknown>) : null;
    },
    /** The tools file an import applied to records without schemas (`--tools`), as its settings name it. */
    toolSchemas(runId: number): RunToolSchemas | null {
      const r = prepareCached(db, 'SELECT settings FROM runs WHERE id = ?').get(runId) as
        | { settings: string }
        | undefined;
      return (r && (JSON.parse(r.settings) as { toolSchemas?: RunToolSchemas }).toolSchemas) || null;
    },
    /** How the stored rows of a run break down (computed from the rows, so a resumed run counts them all). */
    storedCounts(runId: number): { external: number; graded: number; superseded: number; warned: number } {
      return prepareCached(
        db,
        'SELECT coalesce(sum(external), 0) AS external, coalesce(sum(graded), 0) AS graded, ' +
          'coalesce(sum(superseded), 0) AS superseded, coalesce(sum(warnings > 0), 0) AS warned ' +
          'FROM trajectories WHERE run_id = ?',
      ).get(runId) as { external: number; graded: number; superseded: number; warned: number };
    },
  };
}

/** Runs, their files and issues, collections and contexts: writes inside the caller's transaction. */
export function runsWriter(db: WriteDb) {
  return {
    ...runsRepo(db),
    createImportRun(r: {
      jobId: string;
      name: string;
      agentLabel: string;
      collection: string | null;
      settings: unknown;
      files: {
        path: string;
        format: string | null;
        collection: string;
        size: number;
        mtimeMs: number;
        error: string | null;
      }[];
      now: string;
    }): number {
      const { lastInsertRowid } = prepareCached(
        db,
        `INSERT INTO runs (name, agent_kind, agent_label, collection, state, job_id, selection, settings, ` +
          `created_at, started_at)
         VALUES (?, 'imported', ?, ?, 'running', ?, ?, ?, ?, ?)`,
      ).run(
        r.name,
        r.agentLabel,
        r.collection,
        r.jobId,
        JSON.stringify({ files: r.files.map((f) => f.path) }),
        JSON.stringify(r.settings),
        r.now,
        r.now,
      );
      const id = Number(lastInsertRowid);
      const add = prepareCached(
        db,
        'INSERT INTO run_files (run_id, idx, path, format, collection, size, mtime_ms, error) VALUES (?, ?, ?, ?, ' +
          '?, ?, ?, ?)',
      );
      r.files.forEach((f, idx) => add.run(id, idx, f.path, f.format, f.collection, f.size, f.mtimeMs, f.error));
      return id;
    },
    /** Advances a file's position and counts (and the run's), in the batch that stored those records. */
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
      prepareCached(
        db,
        'UPDATE runs SET planned = planned + ?, stored = stored + ?, skipped = skipped + ?, failed = failed + ? ' +
          'WHERE id = ?',
      ).run(d.records, d.stored, d.duplicates, d.refused, runId);
    },
    addIssue(runId: number, i: ImportIssue, now: string): void {
      prepareCached(
        db,
        'INSERT INTO run_issues (run_id, file, line, record, message, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(runId, i.file, i.line, i.record, i.message, now);
    },
    finishRun(runId: number, state: 'done' | 'failed' | 'cancelled', now: string, error: string | null = null): void {
      prepareCached(db, 'UPDATE runs SET state = ?, finished_at = ?, error = ? WHERE id = ?').run(
        state,
        now,
        error,
        runId,
      );
    },
    /**
     * Creates the collection, or adds to what it supersedes. A new collection's score basis (migration 0018):
     * `recorded` for imports, `app` for the app's own runs; an existing one keeps its (someone may have chosen).
     */
    ensureCollection(name: string, supersedes: string[], now: string, basis: ScoreBasis = 'recorded'): void {
      const r = prepareCached(db, 'SELECT supersedes FROM collections WHERE name = ?').get(name) as
        | { supersedes: string }
        | undefined;
      if (!r) {
        prepareCached(
          db,
          'INSERT INTO collections (name, supersedes, description, created_at, updated_at, score_basis) ' +
            'VALUES (?, ?, ?, ?, ?, ?)',
        ).run(name, JSON.stringify([...new Set(supersedes)]), '', now, now, basis);
        return;
      }
      const before = JSON.parse(r.supersedes) as string[];
      const merged = [...new Set([...before, ...supersedes])];
      if (merged.length !== before.length)
        prepareCached(db, 'UPDATE collections SET supersedes = ?, updated_at = ? WHERE name = ?').run(
          JSON.stringify(merged),
          now,
          name,
        );
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
