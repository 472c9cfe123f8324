import { z } from 'zod';
import { mutation, query } from './define';
import { GradeResult } from './entities/checks';
import { pageInput } from './entities/grid-query';
import { Trajectory } from './entities/trajectory';

/** A stored trajectory's grid row: the indexed columns of `trajectories` (DESIGN.md §3). */
export const TrajectoryRow = z.object({
  id: z.number().int(),
  task_id: z.string(),
  trace_id: z.string(),
  model: z.string(),
  source: z.literal('trace-import'),
  message_count: z.number().int(),
  tool_call_count: z.number().int(),
  char_count: z.number().int(),
  completion: z.number().nullable(),
  safety: z.number().nullable(),
  robustness: z.number().nullable(),
  score: z.number().nullable(),
  passed: z.boolean().nullable(),
  /** False when the task was not in the workspace at import: the score columns are then null. */
  graded: z.boolean(),
  checks_origin: z.enum(['authored', 'derived_from_task_yaml']).nullable(),
  created_at: z.string(),
});
export type TrajectoryRow = z.infer<typeof TrajectoryRow>;

/** Only indexed columns: a grid sort or filter never scans the bodies. */
export const TrajectorySortField = z.enum(['id', 'task_id', 'model', 'score', 'passed', 'created_at']);

export const trajectoriesContract = {
  'trajectories.importTrace': mutation({
    summary:
      'Store a Claw-Eval trace (JSONL text) as a trajectory, graded with the shared grader when its task is in the ' +
      'workspace (else stored ungraded, with a warning). The same trace imported again is reported as a duplicate, ' +
      'not stored twice; an unreadable trace is refused with its bad line numbers and nothing is written.',
    input: z.object({
      traceJsonl: z
        .string()
        .min(1)
        .max(256 * 1024 * 1024),
      taskId: z.string().min(1).optional(),
    }),
    output: z.object({
      id: z.number().int(),
      taskId: z.string(),
      graded: z.boolean(),
      score: z.number().nullable(),
      passed: z.boolean().nullable(),
      warnings: z.array(z.string()),
      duplicate: z.boolean(),
    }),
  }),
  'trajectories.list': query({
    summary:
      'One page of stored trajectories, sorted and filtered in SQL on indexed columns; total counts the filtered rows.',
    input: pageInput(TrajectorySortField),
    output: z.object({ rows: z.array(TrajectoryRow), total: z.number().int() }),
  }),
  'trajectories.get': query({
    summary:
      'One stored trajectory: its row, the canonical Trajectory (free-form floats as plain numbers; exportTrace ' +
      'gives the exact bytes) and its grade (null when ungraded).',
    input: z.object({ id: z.number().int() }),
    output: z.object({ row: TrajectoryRow, trajectory: Trajectory, grade: GradeResult.nullable() }),
  }),
  'trajectories.exportTrace': query({
    summary: 'The trace JSONL of a stored trajectory, byte-identical to what was imported.',
    input: z.object({ id: z.number().int() }),
    output: z.object({ traceJsonl: z.string() }),
  }),
} as const;
