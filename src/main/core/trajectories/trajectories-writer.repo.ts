import { cjkText } from './cjk-search';
import { prepareCached, type WriteDb } from '../db/sqlite';
import type { PreparedRow } from './import/prepare';
import { appRowScores } from './row-scores';

const INSERT = `INSERT INTO trajectories (
  task_id, trace_id, content_hash, model, agent, source, source_format, source_task_id, source_reward, source_success,
  run_id, trial, collection, external, valid, message_count, tool_call_count, char_count, tokens, duration_ms, error,
  completion, safety, robustness, score, passed, graded, checks_origin, created_at, source_completion, task_source,
  warnings, app_pending)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (collection, source_task_id, trial, content_hash) DO NOTHING`;

type Inserted = { id: number; duplicate: boolean; trial: number };

const b = (v: boolean | null) => (v === null ? null : v ? 1 : 0);

/**
 * Trajectory writes, inside the caller's transaction (a mutation or a job's batch).
 * When adding a column: the migration, TrajectoryRow, TRAJECTORY_COLUMNS, PreparedRow and INSERT here.
 */
export function trajectoriesWriter(db: WriteDb) {
  const existing = (r: PreparedRow) =>
    prepareCached(
      db,
      'SELECT id FROM trajectories WHERE collection = ? AND source_task_id = ? AND content_hash = ? LIMIT 1',
    ).get(r.collection, r.sourceTaskId, r.contentHash) as { id: number } | undefined;
  /**
   * Numbered per task id (the key exports dedup on, with the trial), not per source task: records of
   * several source tasks graded against one task (--task) are that task's trials 0, 1, 2…, not each
   * its trial 0 — which the export took for duplicates of one attempt. (collection, task_id, trial) is indexed.
   */
  const nextTrial = (r: PreparedRow) =>
    (
      prepareCached(
        db,
        'SELECT coalesce(max(trial) + 1, 0) AS t FROM trajectories WHERE collection = ? AND task_id = ?',
      ).get(r.collection, r.taskId) as { t: number }
    ).t;

  const search = (id: number, text: string) => {
    prepareCached(db, 'INSERT INTO trajectories_fts (rowid, text) VALUES (?, ?)').run(id, text);
    const cjk = cjkText(text);
    if (cjk) prepareCached(db, 'INSERT INTO trajectories_cjk (rowid, text) VALUES (?, ?)').run(id, cjk);
  };

  /** A row and its body, not its search text (search). */
  const store = (r: PreparedRow, now: string): Inserted => {
    let trial = r.trial;
    if (trial === null) {
      const dup = existing(r);
      if (dup) return { id: dup.id, duplicate: true, trial: -1 };
      trial = nextTrial(r);
    }
    const g = r.grade;
    const app = g ? appRowScores(g) : null;
    const res = prepareCached(db, INSERT).run(
      r.taskId,
      r.traceId,
      r.contentHash,
      r.model,
      r.agent,
      r.source,
      r.sourceFormat,
      r.sourceTaskId,
      r.sourceReward,
      b(r.sourceSuccess),
      r.runId,
      trial,
      r.collection,
      b(r.external),
      b(r.valid),
      r.counts.messages,
      r.counts.toolCalls,
      r.counts.chars,
      r.tokens,
      r.durationMs,
      r.error,
      app?.completion ?? null,
      app?.safety ?? null,
      app?.robustness ?? null,
      app?.score ?? null,
      app ? b(app.passed) : null,
      g ? 1 : 0,
      g?.checksOrigin ?? null,
      now,
      r.sourceCompletion,
      r.taskSource,
      r.warnings.length,
      app?.appPending ?? null,
    );
    if (res.changes === 0) {
      const dup = prepareCached(
        db,
        'SELECT id FROM trajectories WHERE collection = ? AND source_task_id = ? AND trial = ? AND content_hash = ?',
      ).get(r.collection, r.sourceTaskId, trial, r.contentHash) as { id: number };
      return { id: dup.id, duplicate: true, trial };
    }
    const id = Number(res.lastInsertRowid);
    prepareCached(
      db,
      // CAST: a trajectory given as UTF-8 bytes is stored as TEXT, byte for byte (the database is UTF-8).
      'INSERT INTO trajectory_bodies (trajectory_id, raw, context_id, file, line, trajectory, grade) VALUES (?, ' +
        '?, ?, ?, ?, CAST(? AS TEXT), ?)',
    ).run(id, r.raw, r.contextId, r.file, r.line, r.trajectoryJson, g ? JSON.stringify(g) : null);
    // The texts beside the body, only when there are some (the viewer reads them); the row keeps their count.
    if (r.warnings.length)
      prepareCached(db, 'INSERT INTO trajectory_warnings (trajectory_id, texts) VALUES (?, ?)').run(
        id,
        JSON.stringify(r.warnings),
      );
    return { id, duplicate: false, trial };
  };

  return {
    /**
     * Stores a row, its body and its search text; a duplicate (same collection, source task, trial
     * and content hash — for sources without trials, the same content at any trial) is not stored:
     * answers the id it has and `duplicate: true`.
     */
    insert(r: PreparedRow, now: string): Inserted {
      const res = store(r, now);
      if (!res.duplicate) search(res.id, r.searchText);
      return res;
    },

    /**
     * insert() for a batch: rows and bodies first, then their search texts. Why: an INSERT into
     * trajectories runs in a statement savepoint (triggers, ON CONFLICT), and a savepoint makes FTS5
     * flush its pending terms to disk. Interleaved, that wrote a tiny index segment per row and was
     * most of an import's time; written after the rows they are flushed once per batch (same index).
     */
    insertAll(rows: readonly PreparedRow[], now: string): Inserted[] {
      const out = rows.map((r) => store(r, now));
      out.forEach((res, i) => {
        if (!res.duplicate) search(res.id, rows[i]!.searchText);
      });
      return out;
    },

    /**
     * Deletes rows (bodies cascade; the FTS trigger takes them out of search); answers the tasks they held per
     * collection.
     */
    delete(ids: readonly number[]): { deleted: number; touched: { collection: string; task_id: string }[] } {
      const touched = new Map<string, { collection: string; task_id: string }>();
      let deleted = 0;
      const get = prepareCached(db, 'SELECT collection, task_id FROM trajectories WHERE id = ?');
      const del = prepareCached(db, 'DELETE FROM trajectories WHERE id = ?');
      for (const id of ids) {
        const r = get.get(id) as { collection: string; task_id: string } | undefined;
        if (!r) continue;
        deleted += del.run(id).changes;
        touched.set(`${r.collection}\u0000${r.task_id}`, r);
      }
      return { deleted, touched: [...touched.values()] };
    },
  };
}
