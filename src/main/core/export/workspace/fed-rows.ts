import type { SftBucket } from '../../../../shared/contract/entities/export';
import type { SourceFormat } from '../../../../shared/contract/entities/trajectory';
import type { SftSelection } from '../../../../shared/contract/export.contract';
import type { ReadDb } from '../../db/sqlite';
import { type ScoreBasis, scoreOfRecordSql } from '../../trajectories/score-basis';

/** One stored trajectory as the SFT export reads it (an SftRecord's metadata, before its body). */
export type RecordRow = {
  id: number;
  task_id: string;
  source_task_id: string;
  task_source: string | null;
  trial: number;
  collection: string;
  agent: string;
  model: string;
  supersedes: string | null;
  /** The score of record per the collection's basis (trajectories/score-basis.ts): what selection compares. */
  record_score: number | null;
  record_completion: number | null;
  /** 1 when that score awaits a judge (the app's grade counts and has judge-pending checks). */
  judge_pending: number;
  /** 1 when the recorded score and the app's grade disagree; null when either is unknown. */
  disagrees: number | null;
  score_basis: ScoreBasis | null;
  valid: number;
  error: string | null;
  external: number;
  bucket: string | null;
  include_override: 'include' | 'exclude' | null;
  run_id: number | null;
  source_format: SourceFormat;
  task_version: number | null;
  slot_id: number | null;
  pool: string;
};

const PAGE = 1000;
const BASIS = scoreOfRecordSql('t');
/** curation_tasks.pool's default (migration 0011): where a task without a curation row belongs. */
export const DEFAULT_TASK_POOL = 'mixed';
const BUCKETS = new Set<string>(['KEEP', 'TRIVIAL', 'UNSOLVABLE']);

/** The workspace's rows a selection feeds: the FROM and WHERE after `t.id > ?`, with their parameters. */
export function fedRows(s: SftSelection) {
  const only = s.collections?.length ? `AND t.collection IN (${s.collections.map(() => '?').join(', ')})` : '';
  // The task's pool picks its rule; a task curation never saw is in curation's default pool (stats.ts).
  const pool = `coalesce(b.pool, '${DEFAULT_TASK_POOL}')`;
  const inPool = s.pool === undefined ? '' : `AND ${pool} = ?`;
  return {
    pool,
    /** `AND …` clauses on `t` and its task's curation row `b`. */
    filter: `${only} ${inPool}`,
    params: [...(s.collections ?? []), ...(s.pool === undefined ? [] : [s.pool])],
  };
}

/**
 * The workspace's trajectories as SFT records, in storage order (the later of two (task, trial)
 * duplicates of one attempt set wins, as stored; trajectories/attempt-set.ts). Every stored row is
 * fed, superseded and uncurated ones included, so the core counts each with its reason; bodies are
 * loaded only when the core asks for them.
 * Re-iterable: each pass runs the query again (the core reads metadata, then bodies, then winners).
 * `extra` adds columns to each row (the SQL selection's verdict columns, sft-selection.ts).
 */
export function workspaceRows<R extends RecordRow>(
  db: ReadDb,
  s: SftSelection,
  extra = '',
  extraParams: unknown[] = [],
) {
  const fed = fedRows(s);
  const sql = `
    SELECT t.id, t.task_id, t.source_task_id, t.task_source, t.trial, t.collection, t.agent, t.model, c.supersedes,
      ${BASIS.score} AS record_score, ${BASIS.value} AS record_completion, ${BASIS.pending} AS judge_pending,
      t.disagrees, c.score_basis,
      t.valid, t.error, t.external, b.bucket, t.include_override, t.run_id, t.source_format,
      k.version AS task_version, k.slot_id, ${fed.pool} AS pool ${extra}
    FROM trajectories t
      LEFT JOIN collections c ON c.name = t.collection
      LEFT JOIN tasks k ON k.task_id = t.task_id
      LEFT JOIN curation_tasks b ON b.task_id = t.task_id  -- the bucket is the task's (curation INTERFACE)
    WHERE t.id > ? ${fed.filter} ORDER BY t.id LIMIT ${PAGE}`;
  /**
   * Pages by id with .all(), never .iterate(): an open iterator makes the connection busy, and the job
   * commits its progress (a write) on the same connection between records.
   */
  return function* rows(): Generator<R> {
    const statement = db.prepare(sql);
    for (let after = 0; ; ) {
      const page = statement.all(...extraParams, after, ...fed.params) as R[];
      yield* page;
      if (page.length < PAGE) return;
      after = page.at(-1)!.id;
    }
  };
}

/** The stored bucket when it is one of the buckets (curation's), else none. */
export const bucketOf = (r: RecordRow): SftBucket | null =>
  r.bucket !== null && BUCKETS.has(r.bucket) ? (r.bucket as SftBucket) : null;
