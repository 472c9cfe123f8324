import type { RunRow } from '../../../shared/contract/entities/run';
import { prepareCached, type ReadDb, type WriteDb } from '../db/sqlite';

/** A stored pair of a run: its row id and whether its run went through (0: a model error; re-run on resume). */
export type StoredPair = { id: number; task_id: string; trial: number; valid: number };

/**
 * Agent runs in the `runs` table (migration 0009; imports share it with agent_kind 'imported').
 * A run row is keyed on its job: a resumed job finds its run again.
 */
export function agentRunsRepo(db: ReadDb) {
  return {
    byJob(jobId: string): { id: number; collection: string } | undefined {
      return prepareCached(db, 'SELECT id, collection FROM runs WHERE job_id = ?').get(jobId) as
        | { id: number; collection: string }
        | undefined;
    },
    pairs(runId: number): StoredPair[] {
      return prepareCached(
        db,
        "SELECT id, task_id, trial, valid FROM trajectories WHERE run_id = ? AND source = 'run'",
      ).all(runId) as StoredPair[];
    },
    /** Figures of a run counted from its stored rows (so a resumed run counts the earlier attempts' too). */
    tally(runId: number) {
      return prepareCached(
        db,
        `SELECT count(*) AS stored, coalesce(sum(valid = 0), 0) AS errors, coalesce(sum(graded), 0) AS graded,
           coalesce(sum(passed), 0) AS passed, avg(CASE WHEN valid = 1 THEN score END) AS mean_score,
           coalesce(sum(tokens), 0) AS tokens
         FROM trajectories WHERE run_id = ?`,
      ).get(runId) as {
        stored: number;
        errors: number;
        graded: number;
        passed: number;
        mean_score: number | null;
        tokens: number;
      };
    },
    /**
     * Runs and imports, newest first. A run whose job ended without the run saying so (a cancel, a
     * crash) shows the job's state; an orphaned job is 'interrupted'.
     */
    list(kind: 'all' | 'run' | 'import', offset: number, limit: number, id?: number) {
      const where =
        id !== undefined
          ? 'WHERE r.id = ?'
          : kind === 'run'
            ? "WHERE r.agent_kind != 'imported'"
            : kind === 'import'
              ? "WHERE r.agent_kind = 'imported'"
              : '';
      const params = id !== undefined ? [id] : [];
      const total = (prepareCached(db, `SELECT count(*) AS n FROM runs r ${where}`).get(...params) as { n: number }).n;
      const rows = prepareCached(
        db,
        `SELECT r.id, r.name, CASE r.agent_kind WHEN 'imported' THEN 'import' ELSE 'run' END AS kind, r.agent_kind,
           r.agent_label, r.endpoint_name, r.model, r.user_simulator, r.collection, r.trials, r.concurrency,
           CASE WHEN r.state IN ('pending', 'running') AND j.state IN ('failed', 'cancelled', 'interrupted')
             THEN j.state ELSE r.state END AS state,
           r.job_id, r.planned, r.stored, r.skipped, r.failed, coalesce(r.error, j.error) AS error,
           (SELECT count(*) FROM trajectories t WHERE t.run_id = r.id) AS trajectories,
           (SELECT coalesce(sum(passed), 0) FROM trajectories t WHERE t.run_id = r.id) AS passed,
           (SELECT avg(score) FROM trajectories t WHERE t.run_id = r.id AND t.valid = 1) AS mean_score,
           (SELECT coalesce(sum(tokens), 0) FROM trajectories t WHERE t.run_id = r.id) AS tokens,
           r.created_at, r.started_at, r.finished_at
         FROM runs r LEFT JOIN jobs j ON j.id = r.job_id ${where}
         ORDER BY r.created_at DESC, r.id DESC LIMIT ? OFFSET ?`,
      ).all(...params, limit, offset) as RunRow[];
      return { rows, total } as { rows: RunRow[]; total: number };
    },
  };
}

export type NewAgentRun = {
  jobId: string;
  name: string;
  agentKind: 'model' | 'reference';
  agentLabel: string;
  endpointName: string | null;
  model: string | null;
  userSimulator: string | null;
  collection: string;
  trials: number;
  concurrency: number;
  planned: number;
  selection: unknown;
  settings: unknown;
  now: string;
};

/** Writes inside the caller's transaction (a job batch). */
export function agentRunsWriter(db: WriteDb) {
  return {
    create(r: NewAgentRun): number {
      const { lastInsertRowid } = prepareCached(
        db,
        `INSERT INTO runs (name, agent_kind, agent_label, endpoint_name, model, user_simulator, collection, trials,
           concurrency, state, job_id, selection, settings, planned, created_at, started_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?)`,
      ).run(
        r.name,
        r.agentKind,
        r.agentLabel,
        r.endpointName,
        r.model,
        r.userSimulator,
        r.collection,
        r.trials,
        r.concurrency,
        r.jobId,
        JSON.stringify(r.selection),
        JSON.stringify(r.settings),
        r.planned,
        r.now,
        r.now,
      );
      return Number(lastInsertRowid);
    },
    /** A resumed attempt: running again, with the pairs it found already stored. */
    restart(runId: number, skipped: number, now: string): void {
      prepareCached(
        db,
        "UPDATE runs SET state = 'running', skipped = ?, started_at = ?, finished_at = NULL, error = NULL WHERE id = ?",
      ).run(skipped, now, runId);
    },
    /** Counters of one batch. */
    add(runId: number, stored: number, failed: number): void {
      prepareCached(db, 'UPDATE runs SET stored = stored + ?, failed = failed + ? WHERE id = ?').run(
        stored,
        failed,
        runId,
      );
    },
    /**
     * The run ends: its counters recounted from its rows (a pair that failed is one whose row is
     * invalid, or that has an issue and no row), and its state.
     */
    finish(runId: number, state: 'done' | 'failed', now: string, error: string | null = null): void {
      prepareCached(
        db,
        `UPDATE runs SET state = @state, finished_at = @now, error = @error,
           stored = (SELECT count(*) FROM trajectories WHERE run_id = @id),
           failed = (SELECT count(*) FROM trajectories WHERE run_id = @id AND valid = 0)
             + (SELECT count(DISTINCT i.task_id || char(0) || i.trial) FROM run_issues i
                WHERE i.run_id = @id AND i.trial IS NOT NULL AND NOT EXISTS (
                  SELECT 1 FROM trajectories t WHERE t.run_id = @id AND t.task_id = i.task_id AND t.trial = i.trial))
         WHERE id = @id`,
      ).run({ state, now, error, id: runId });
    },
    issue(runId: number, taskId: string, trial: number, message: string, now: string): void {
      prepareCached(
        db,
        'INSERT INTO run_issues (run_id, task_id, trial, message, created_at) VALUES (?, ?, ?, ?, ?)',
      ).run(runId, taskId, trial, message, now);
    },
  };
}
