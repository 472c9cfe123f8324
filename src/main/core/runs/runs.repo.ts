import type { ImportIssue } from '../../../shared/contract/entities/trajectory-row';
import type { RunRow } from '../../../shared/contract/entities/run';
import { prepareCached, type ReadDb, type WriteDb } from '../db/sqlite';

/** Where an import's `--tools` schemas are kept: a trajectory context (stored once per content) and what it was. */
export type RunToolSchemas = { contextId: number; file: string; sha256: string; tools: number };

/** A stored pair of a run: its row id and whether its run went through (0: a model error; re-run on resume). */
export type StoredPair = { id: number; task_id: string; trial: number; valid: number };

/**
 * The one repository of the `runs` table (migration 0009) and its issues: agent runs (reference or model
 * agents) and imports (agent_kind 'imported') alike. A run row is keyed on its job: a resumed job finds
 * its run again. An import's files and contexts are trajectories/import/import-files.repo.ts's.
 */
export function runsRepo(db: ReadDb) {
  return {
    byJob(jobId: string): { id: number; state: string; collection: string | null } | undefined {
      return prepareCached(db, 'SELECT id, state, collection FROM runs WHERE job_id = ?').get(jobId) as
        | { id: number; state: string; collection: string | null }
        | undefined;
    },
    run(id: number) {
      return prepareCached(db, 'SELECT * FROM runs WHERE id = ?').get(id) as
        | { id: number; planned: number; stored: number; skipped: number; failed: number }
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
           coalesce(sum(tokens), 0) AS tokens,
           coalesce(sum(valid = 1 AND score IS NULL AND app_pending IS NOT NULL), 0) AS judge_pending
         FROM trajectories WHERE run_id = ?`,
      ).get(runId) as {
        stored: number;
        errors: number;
        graded: number;
        passed: number;
        mean_score: number | null;
        tokens: number;
        /** Valid rows whose score waits for a judge (score NULL, app_pending set): neither passed nor failed. */
        judge_pending: number;
      };
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
           (SELECT coalesce(sum(t.valid = 1 AND t.score IS NULL AND t.app_pending IS NOT NULL), 0)
              FROM trajectories t WHERE t.run_id = r.id) AS judge_pending,
           r.created_at, r.started_at, r.finished_at
         FROM runs r LEFT JOIN jobs j ON j.id = r.job_id ${where}
         ORDER BY r.created_at DESC, r.id DESC LIMIT ? OFFSET ?`,
      ).all(...params, limit, offset) as RunRow[];
      return { rows, total } as { rows: RunRow[]; total: number };
    },
  };
}

export type NewRun = {
  jobId: string;
  name: string;
  /** imported: a trajectories import; reference / model: an agent run. */
  agentKind: 'imported' | 'reference' | 'model';
  agentLabel: string;
  endpointName?: string | null;
  model?: string | null;
  userSimulator?: string | null;
  collection: string | null;
  /** An import's is 1 (the column's default). */
  trials?: number;
  concurrency?: number;
  planned?: number;
  selection: unknown;
  settings: unknown;
  now: string;
};

/** Counter changes of one batch (each added to the run's). */
export type RunCounts = { planned?: number; stored?: number; skipped?: number; failed?: number };

/** An issue of a run: an import's bad record (file, line, record) or an agent run's failed pair (task, trial). */
export type RunIssue = ImportIssue | { taskId: string; trial: number; message: string };

/** Writes inside the caller's transaction (a job batch). */
export function runsWriter(db: WriteDb) {
  return {
    ...runsRepo(db),
    create(r: NewRun): number {
      const { lastInsertRowid } = prepareCached(
        db,
        `INSERT INTO runs (name, agent_kind, agent_label, endpoint_name, model, user_simulator, collection, trials,
           concurrency, state, job_id, selection, settings, planned, created_at, started_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?)`,
      ).run(
        r.name,
        r.agentKind,
        r.agentLabel,
        r.endpointName ?? null,
        r.model ?? null,
        r.userSimulator ?? null,
        r.collection,
        r.trials ?? 1,
        r.concurrency ?? 1,
        r.jobId,
        JSON.stringify(r.selection),
        JSON.stringify(r.settings),
        r.planned ?? 0,
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
    count(runId: number, d: RunCounts): void {
      prepareCached(
        db,
        'UPDATE runs SET planned = planned + ?, stored = stored + ?, skipped = skipped + ?, failed = failed + ? ' +
          'WHERE id = ?',
      ).run(d.planned ?? 0, d.stored ?? 0, d.skipped ?? 0, d.failed ?? 0, runId);
    },
    /**
     * An agent run's counters recounted from its rows (a pair that failed is one whose row is invalid, or
     * that has an issue and no row), so a resumed run counts every attempt's.
     */
    recount(runId: number): void {
      prepareCached(
        db,
        `UPDATE runs SET stored = (SELECT count(*) FROM trajectories WHERE run_id = @id),
           failed = (SELECT count(*) FROM trajectories WHERE run_id = @id AND valid = 0)
             + (SELECT count(DISTINCT i.task_id || char(0) || i.trial) FROM run_issues i
                WHERE i.run_id = @id AND i.trial IS NOT NULL AND NOT EXISTS (
                  SELECT 1 FROM trajectories t WHERE t.run_id = @id AND t.task_id = i.task_id AND t.trial = i.trial))
         WHERE id = @id`,
      ).run({ id: runId });
    },
    finish(runId: number, state: 'done' | 'failed' | 'cancelled', now: string, error: string | null = null): void {
      prepareCached(db, 'UPDATE runs SET state = ?, finished_at = ?, error = ? WHERE id = ?').run(
        state,
        now,
        error,
        runId,
      );
    },
    addIssue(runId: number, i: RunIssue, now: string): void {
      if ('taskId' in i)
        prepareCached(
          db,
          'INSERT INTO run_issues (run_id, task_id, trial, message, created_at) VALUES (?, ?, ?, ?, ?)',
        ).run(runId, i.taskId, i.trial, i.message, now);
      else
        prepareCached(
          db,
          'INSERT INTO run_issues (run_id, file, line, record, message, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        ).run(runId, i.file, i.line, i.record, i.message, now);
    },
  };
}
