import { TrajectoryRow } from '../../../shared/contract/trajectories.contract';
import { pagedList, type PagedTable } from '../db/paged-list';
import type { ColumnMap, PageQuery } from '../db/sql-filter';
import { prepareCached, type ReadDb, type WriteDb } from '../db/sqlite';

/** The grid's sortable and filterable fields: indexed columns only (migration 0005). */
export const TRAJECTORY_COLUMNS: ColumnMap = {
  id: { sql: 'id', kind: 'number' },
  task_id: { sql: 'task_id', kind: 'text' },
  model: { sql: 'model', kind: 'text', selective: false },
  score: { sql: 'score', kind: 'number' },
  passed: { sql: 'passed', kind: 'number', selective: false },
  created_at: { sql: 'created_at', kind: 'text' },
};

const COLS =
  'id, task_id, trace_id, model, source, message_count, tool_call_count, char_count, completion, safety, robustness, ' +
  'score, passed, graded, checks_origin, created_at';
type Raw = Record<string, unknown> & { passed: number | null; graded: number };
const toRow = (r: Raw) =>
  TrajectoryRow.parse({ ...r, passed: r.passed === null ? null : r.passed === 1, graded: r.graded === 1 });

/** What an import stores: the row's columns (id and created_at aside) and the three bodies. */
export type NewTrajectory = {
  taskId: string;
  traceId: string;
  contentHash: string;
  model: string;
  counts: { messages: number; toolCalls: number; chars: number };
  grade: {
    completion: number;
    safety: number;
    robustness: number;
    score: number;
    passed: boolean;
    checksOrigin: string;
  } | null;
  trace: string;
  trajectoryJson: string;
  gradeJson: string | null;
};

/** The trajectories grid's table for pagedList. */
export const TRAJECTORY_TABLE: PagedTable<TrajectoryRow, Raw> = {
  table: 'trajectories',
  columns: TRAJECTORY_COLUMNS,
  pk: 'id',
  select: COLS,
  toRow,
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
    /** The stored copy of this exact trace, if any (the unique index on trace_id + content_hash). */
    findTrace(traceId: string, contentHash: string): TrajectoryRow | undefined {
      const r = prepareCached(db, `SELECT ${COLS} FROM trajectories WHERE trace_id = ? AND content_hash = ?`).get(
        traceId,
        contentHash,
      ) as Raw | undefined;
      return r ? toRow(r) : undefined;
    },
    body(id: number): { trace: string; trajectory: string; grade: string | null } | undefined {
      return prepareCached(db, 'SELECT trace, trajectory, grade FROM trajectory_bodies WHERE trajectory_id = ?').get(
        id,
      ) as { trace: string; trajectory: string; grade: string | null } | undefined;
    },
  };
}

/** Trajectory writes, inside the caller's transaction. */
export function trajectoriesWriter(db: WriteDb) {
  return {
    /** Row and body in the caller's transaction; answers the new id. */
    insert(t: NewTrajectory, now: string): number {
      const g = t.grade;
      const { lastInsertRowid } = prepareCached(
        db,
        `INSERT INTO trajectories (task_id, trace_id, content_hash, model, source, message_count, tool_call_count, ` +
          `char_count, completion, safety, robustness, score, passed, graded, checks_origin, created_at)
         VALUES (?, ?, ?, ?, 'trace-import', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        t.taskId,
        t.traceId,
        t.contentHash,
        t.model,
        t.counts.messages,
        t.counts.toolCalls,
        t.counts.chars,
        g?.completion ?? null,
        g?.safety ?? null,
        g?.robustness ?? null,
        g?.score ?? null,
        g ? (g.passed ? 1 : 0) : null,
        g ? 1 : 0,
        g?.checksOrigin ?? null,
        now,
      );
      const id = Number(lastInsertRowid);
      prepareCached(
        db,
        'INSERT INTO trajectory_bodies (trajectory_id, trace, trajectory, grade) VALUES (?, ?, ?, ?)',
      ).run(id, t.trace, t.trajectoryJson, t.gradeJson);
      return id;
    },
  };
}
