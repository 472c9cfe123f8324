import { createHash } from 'node:crypto';
import type { GradeResult } from '../../../../shared/contract/entities/checks';
import type { TaskSpec } from '../../../../shared/contract/entities/task-spec';
import type { SourceFormat } from '../../../../shared/contract/entities/trajectory';
import type { ReadDb } from '../../db/sqlite';
import { gradeTrajectory } from '../../grading/grade-trajectory';
import { storedTaskSpec } from '../../tasks/task-spec-of';
import { tasksRepo } from '../../tasks/tasks.repo';
import type { Normalized } from '../formats';
import { indexForSearch } from '../search-text';
import { taskKeyOf } from '../task-key';
import { gradableRun } from '../stored-grade';
import { countsOf } from '../trajectory-stats';

/** Everything one trajectory row and its body need, computed before the write transaction. */
export type PreparedRow = {
  taskId: string;
  traceId: string;
  contentHash: string;
  model: string;
  agent: string;
  source: 'import' | 'run';
  sourceFormat: SourceFormat;
  sourceTaskId: string;
  /** The benchmark and domain qualifying the source's task id (task-key.ts); null when it names a workspace task. */
  taskSource: string | null;
  sourceReward: number | null;
  /** The source's own scores.completion (curation prefers it to the reward when our grader has none). */
  sourceCompletion: number | null;
  sourceSuccess: boolean | null;
  runId: number | null;
  /** null: take the next free trial of the task in the collection (sources without trials). */
  trial: number | null;
  collection: string;
  external: boolean;
  valid: boolean;
  counts: { messages: number; toolCalls: number; chars: number };
  tokens: number | null;
  durationMs: number | null;
  error: string | null;
  grade: GradeResult | null;
  raw: Buffer | null;
  contextId: number | null;
  /** Where the record was read. */
  file: string | null;
  line: number | null;
  /**
   * The Trajectory JSON when it is not read from raw (runs, edits); as UTF-8 bytes when a helper
   * thread handed it over (transferred, not copied), stored as the same TEXT.
   */
  trajectoryJson: string | Uint8Array | null;
  searchText: string;
  /**
   * What makes the record or its grade less telling than it looks (the reader's and the grader's
   * warnings): stored with it, counted by the import, filterable in the grid.
   */
  warnings: string[];
};

const finite = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Tasks of the workspace, looked up once per id during an import. */
export function taskLookup(db: ReadDb) {
  const repo = tasksRepo(db);
  const known = new Map<string, TaskSpec | null>();
  return (taskId: string): TaskSpec | null => {
    if (!known.has(taskId)) known.set(taskId, repo.get(taskId) ? storedTaskSpec(repo, taskId).spec : null);
    return known.get(taskId)!;
  };
}

export type PrepareOptions = {
  collection: string;
  runId: number | null;
  contextId: number | null;
  file: string | null;
  line: number | null;
  /** Grade every record against this task (the record's own id stays source_task_id, its source task_source). */
  taskId: string | null;
  agent: string | null;
  spec: (taskId: string) => TaskSpec | null;
};

/**
 * A read record → the row to store, under its task key (task-key.ts): graded with the shared grader
 * when its task is in the workspace and it carries what the grader reads (dispatches, or calls that
 * all have results); else kept as external (task unknown) or ungraded, with the source's reward
 * either way.
 */
export function prepareRecord(raw: Buffer, n: Normalized, o: PrepareOptions): { row: PreparedRow; warnings: string[] } {
  const t = n.trajectory;
  const warnings = [...n.warnings];
  const taskId = o.taskId ?? taskKeyOf(n.row.taskSource, n.row.sourceTaskId);
  const spec = o.spec(taskId);
  let grade: GradeResult | null = null;
  if (spec && n.row.gradable) {
    const g = gradeTrajectory(spec, gradableRun(t), taskId);
    grade = g.grade;
    warnings.push(...g.warnings);
  } else if (spec) warnings.push(`not graded: a tool call has no result, so the grader cannot tell what happened`);
  return {
    row: {
      taskId,
      traceId: n.row.traceId,
      contentHash: createHash('sha256').update(raw).digest('hex'),
      model: t.model,
      agent: o.agent ?? (t.model || 'unknown'),
      source: 'import',
      sourceFormat: t.source.format,
      sourceTaskId: n.row.sourceTaskId,
      taskSource: n.row.taskSource,
      sourceReward: n.row.reward,
      sourceCompletion: finite(t.scores?.completion),
      sourceSuccess: n.row.success,
      runId: o.runId,
      trial: n.row.trial,
      collection: o.collection,
      external: spec === null,
      valid: t.valid,
      counts: countsOf(t),
      tokens: n.row.tokens,
      durationMs: n.row.durationMs,
      error: n.row.error,
      grade,
      raw,
      contextId: o.contextId,
      file: o.file,
      line: o.line,
      trajectoryJson: null,
      searchText: indexForSearch(t),
      // In the row, not beside it: bulk imports hand on rows only (produce.ts), and lost them.
      warnings,
    },
    warnings,
  };
}
