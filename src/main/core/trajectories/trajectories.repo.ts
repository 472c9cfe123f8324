import { TrajectoryRow } from '../../../shared/contract/entities/trajectory-row';
import { pagedList, type PagedTable } from '../db/paged-list';
import type { ColumnMap, PageQuery } from '../db/sql-filter';
import { prepareCached, type ReadDb } from '../db/sqlite';
import { upstreamSql } from '../upstream-grader/upstream-columns';

const num = (sql: string, selective = true) => ({ sql, kind: 'number' as const, ...(selective ? {} : { selective }) });
const text = (sql: string, selective = true) => ({ sql, kind: 'text' as const, ...(selective ? {} : { selective }) });

/** A trajectory's bucket: its task's, in curation_tasks (migration 0013; curation/README.md, INTERFACE). */
export const BUCKET_SQL = '(SELECT c.bucket FROM curation_tasks c WHERE c.task_id = trajectories.task_id)';

/** Its collection's score basis (migration 0018): a handful of collections, read per row of a page. */
export const SCORE_BASIS_SQL = '(SELECT s.score_basis FROM collections s WHERE s.name = trajectories.collection)';
/** The app's grade awaits a judge (app_pending: the pending weight, NULL when none). */
const JUDGE_PENDING_SQL = '(coalesce(app_pending, 0) > 0)';
/** Upstream's grade beside the app's (migration 0031); agreement is computed, one definition with the per-task view. */
const UPSTREAM_AGREES_SQL = upstreamSql().agrees;

/**
 * The grid's fields. Indexed (migrations 0009, 0013): id, run_id, task_id (+trial), collection (+task_id),
 * agent, model (+score, task_id: a bucket filter tests the task id in the index), score, source_reward,
 * created_at. bucket is read through the task (a lookup: filters become `task_id IN (tasks of the
 * bucket)`). The others sort by scanning; `selective: false` marks columns of a few values, whose
 * filters read the table in order.
 */
export const TRAJECTORY_COLUMNS: ColumnMap = {
  id: num('id'),
  run_id: num('run_id'),
  task_id: text('task_id'),
  trial: num('trial', false),
  collection: text('collection'),
  agent: text('agent'),
  model: text('model'),
  source: text('source', false),
  source_format: text('source_format', false),
  source_task_id: text('source_task_id'),
  task_source: text('task_source', false),
  source_reward: num('source_reward'),
  source_completion: num('source_completion'),
  source_success: num('source_success', false),
  external: num('external', false),
  valid: num('valid', false),
  superseded: num('superseded', false),
  superseded_by: text('superseded_by', false),
  include_override: text('include_override', false),
  bucket: { sql: BUCKET_SQL, kind: 'text', via: { table: 'curation_tasks', key: 'task_id', column: 'bucket' } },
  message_count: num('message_count'),
  tool_call_count: num('tool_call_count'),
  char_count: num('char_count'),
  tokens: num('tokens'),
  duration_ms: num('duration_ms'),
  error: text('error'),
  completion: num('completion'),
  safety: num('safety', false),
  robustness: num('robustness', false),
  score: num('score'),
  passed: num('passed', false),
  graded: num('graded', false),
  // Disagreements are few and indexed where 1 (migration 0018); pending and basis take a handful of values.
  disagrees: num('disagrees'),
  judge_pending: num(JUDGE_PENDING_SQL, false),
  score_basis: text(SCORE_BASIS_SQL, false),
  // Unindexed: few rows are graded upstream; their filters read the table in order.
  upstream_score: num('upstream_score', false),
  upstream_passed: num('upstream_passed', false),
  upstream_agrees: num(UPSTREAM_AGREES_SQL, false),
  upstream_error: text('upstream_error', false),
  // Few values (mostly 0): "has warnings" reads the table in order, like valid and graded; no index to pay on import.
  warnings: num('warnings', false),
  created_at: text('created_at'),
};

const COLS =
  'id, run_id, task_id, trial, collection, agent, model, source, source_format, source_task_id, task_source, ' +
  'source_reward, ' +
  'source_completion, source_success, trace_id, external, valid, superseded, superseded_by, include_override, ' +
  `${BUCKET_SQL} AS bucket, message_count, tool_call_count, char_count, tokens, duration_ms, error, completion, ` +
  'safety, robustness, score, passed, graded, checks_origin, warnings, created_at, disagrees, ' +
  `${JUDGE_PENDING_SQL} AS judge_pending, ${SCORE_BASIS_SQL} AS score_basis, upstream_score, upstream_passed, ` +
  `${UPSTREAM_AGREES_SQL} AS upstream_agrees, upstream_error`;
type Raw = Record<string, unknown>;
const bool = (v: unknown) => (v === null || v === undefined ? null : v === 1);
const toRow = (r: Raw) =>
  TrajectoryRow.parse({
    ...r,
    source_success: bool(r.source_success),
    external: r.external === 1,
    valid: r.valid === 1,
    superseded: r.superseded === 1,
    passed: bool(r.passed),
    graded: r.graded === 1,
    disagrees: bool(r.disagrees),
    judge_pending: r.judge_pending === 1,
    upstream_passed: bool(r.upstream_passed),
    upstream_agrees: bool(r.upstream_agrees),
  });

/** The trajectories grid's table for pagedList. */
export const TRAJECTORY_TABLE: PagedTable<TrajectoryRow, Raw> = {
  table: 'trajectories',
  columns: TRAJECTORY_COLUMNS,
  pk: 'id',
  select: COLS,
  toRow,
  // The quick search box reads ids and labels; message text has its own box (the FTS5 `text` filter).
  search: { like: ['task_id', 'source_task_id', 'agent', 'collection'] },
  // Under a bucket filter, sorts on these read each task's (task_id, column) index and merge (migration 0028).
  merge: {
    sorts: ['source_reward', 'score', 'model', 'collection', 'created_at'],
    counts: { table: 'trajectory_task_rows', n: 'n' },
    // Their own indexes (0009): a block is first read along them, while the bucket's rows come soon enough.
    walks: {
      source_reward: 'trajectories_source_reward',
      score: 'trajectories_score',
      created_at: 'trajectories_created_at',
    },
  },
};

export type TrajectoryBody = {
  raw: Buffer | null;
  context_id: number | null;
  file: string | null;
  line: number | null;
  trajectory: string | null;
  grade: string | null;
};

export function trajectoriesRepo(db: ReadDb) {
  return {
    list(q: PageQuery) {
      return pagedList(db, TRAJECTORY_TABLE, q);
    },
    row(id: number): TrajectoryRow | undefined {
      const r = prepareCached(db, `SELECT ${COLS} FROM trajectories WHERE id = ?`).get(id) as Raw | undefined;
      return r ? toRow(r) : undefined;
    },
    body(id: number): TrajectoryBody | undefined {
      return prepareCached(
        db,
        'SELECT raw, context_id, file, line, trajectory, grade FROM trajectory_bodies WHERE trajectory_id = ?',
      ).get(id) as TrajectoryBody | undefined;
    },
    /** The warnings its import kept, in the order they were raised ([] when none). */
    warnings(id: number): string[] {
      const r = prepareCached(db, 'SELECT texts FROM trajectory_warnings WHERE trajectory_id = ?').get(id) as
        | { texts: string }
        | undefined;
      return r ? (JSON.parse(r.texts) as string[]) : [];
    },
    /**
     * Ids a search finds and how many: best first (bm25) when it has words, else newest first (a CJK
     * substring has no rank). `ids` is textIds()'s id set.
     */
    search(
      s: { match: string | null; ids: { sql: string; params: unknown[] } },
      offset: number,
      limit: number,
    ): { ids: number[]; total: number } {
      const total = (
        prepareCached(db, `SELECT count(*) AS n FROM (${s.ids.sql})`).get(...s.ids.params) as { n: number }
      ).n;
      const page = s.match
        ? prepareCached(
            db,
            `SELECT rowid AS id FROM trajectories_fts WHERE trajectories_fts MATCH ? AND rowid IN (${s.ids.sql}) ` +
              'ORDER BY rank LIMIT ? OFFSET ?',
          ).all(s.match, ...s.ids.params, limit, offset)
        : prepareCached(db, `SELECT rowid AS id FROM (${s.ids.sql}) ORDER BY rowid DESC LIMIT ? OFFSET ?`).all(
            ...s.ids.params,
            limit,
            offset,
          );
      return { ids: (page as { id: number }[]).map((r) => r.id), total };
    },
    collections() {
      return prepareCached(
        db,
        `SELECT c.name, c.supersedes, c.description, c.created_at,
           (SELECT count(*) FROM trajectories t WHERE t.collection = c.name) AS trajectories,
           (SELECT count(DISTINCT task_id) FROM trajectories t WHERE t.collection = c.name) AS tasks,
           (SELECT count(*) FROM trajectories t WHERE t.collection = c.name AND t.superseded = 1) AS superseded
         FROM collections c ORDER BY c.created_at, c.name`,
      ).all() as {
        name: string;
        supersedes: string;
        description: string;
        created_at: string;
        trajectories: number;
        tasks: number;
        superseded: number;
      }[];
    },
  };
}
