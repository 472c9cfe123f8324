/**
 * Which score a trajectory counts with (issue 18 item 3, migration 0018): the score of record — what its source
 * recorded, `source_completion` / `source_reward` / `source_success` (for the app's own runs: their grade at run
 * time) — or the app's current grade (`completion` / `score` / `passed`, NULL while a judge is pending). Its
 * collection's `score_basis` chooses:
 * - `recorded` (every import's default): the record; the app's grade only for a row whose source recorded nothing
 *   (a messages file without reward — there is no record to keep);
 * - `app` (the default of collections the app's runs wrote): the app's grade; the record only for a row the app
 *   could not grade (a task outside the workspace).
 * One side is taken whole — value, score and pass — never a mix. Curation's statistics, the runs report and the SFT
 * export read these expressions, so switching a collection's basis moves all three together.
 *
 * `t` is the trajectories table's alias in the caller's query ('' when unaliased).
 */
export function scoreOfRecordSql(t = '') {
  const c = (col: string) => (t ? `${t}.${col}` : col);
  const hasRecord = `(${c('source_reward')} IS NOT NULL OR ${c('source_completion')} IS NOT NULL OR ${c(
    'source_success',
  )} IS NOT NULL)`;
  // The uncorrelated subquery is computed once per statement (a handful of names), not per row.
  const appBasis = `${c('collection')} IN (SELECT name FROM collections WHERE score_basis = 'app')`;
  const useApp = `(CASE WHEN ${appBasis} THEN ${c('graded')} = 1 ELSE NOT ${hasRecord} END)`;
  return {
    /** 1 when the row counts with the app's grade, 0 with its record. */
    useApp,
    /** The attempt's value for curation (formats.md §6.3: completion, else reward). */
    value: `(CASE WHEN ${useApp} THEN ${c('completion')} ELSE coalesce(${c('source_completion')}, ${c(
      'source_reward',
    )}) END)`,
    score: `(CASE WHEN ${useApp} THEN ${c('score')} ELSE ${c('source_reward')} END)`,
    passed: `(CASE WHEN ${useApp} THEN ${c('passed')} ELSE ${c('source_success')} END)`,
    /**
     * 1 when the row counts with the app's grade and that grade awaits a judge: its score of record is unknown
     * (NULL), not 0 — exports reject it as `judge_pending`, reports list it apart from failures and errors.
     */
    pending: `(${useApp} AND coalesce(${c('app_pending')}, 0) > 0)`,
  };
}

export const SCORE_BASES = ['recorded', 'app'] as const;
export type ScoreBasis = (typeof SCORE_BASES)[number];
