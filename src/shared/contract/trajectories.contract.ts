import { z } from 'zod';
import { TraceText } from './entities/trace-text';
import { job, mutation, query } from './define';
import { GradeResult } from './entities/checks';
import { idsInput, pageInput, ValuesOutput, valuesInput } from './entities/grid-query';
import { Trajectory } from './entities/trajectory';
import { ImportFormat, ImportIssue, ImportResult, TrajectoryRow, TrajectorySortField } from './entities/trajectory-row';

export { ImportFormat, ImportIssue, ImportResult, TrajectoryRow, TrajectorySortField };

/**
 * The grid's full-text filter: only trajectories whose message text matches (trajectories_fts), as
 * trajectories.search reads it. Beside the quick search, which matches ids and labels.
 */
const TextFilter = z.object({
  query: z.string().min(1).max(1000),
  mode: z.enum(['words', 'fts']).default('words'),
});
const text = { text: TextFilter.optional() };

const CollectionName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\s/\\][^/\\]*$/, 'a collection name has no slashes and does not start with a space');

export const trajectoriesContract = {
  'trajectories.import': job({
    summary:
      'Import trajectory files (Claw-Eval trace JSONL, τ-bench results JSON, τ²-bench results JSON, OpenAI ' +
      'fine-tuning / messages JSONL, LLaMA-Factory sharegpt) in a worker, streaming: each record is graded when ' +
      'its task is in the workspace (else kept as external with its own reward); duplicates are skipped and ' +
      'counted; every bad record is reported with its file and line and the good ones are kept. Resumable.',
    input: z.object({
      /** Files, or folders (their .json / .jsonl files, recursively, in name order). */
      paths: z.array(z.string().min(1)).min(1).max(10_000),
      format: ImportFormat.default('auto'),
      /** Default: per file, its name without extension (Claw-Eval traces: their folder's name). */
      collection: CollectionName.optional(),
      /** Collections this import replaces for every task it holds (formats.md §6.4). */
      supersedes: z.array(CollectionName).max(100).default([]),
      /** Grade every record against this workspace task (the records' own task ids are kept as source_task_id). */
      taskId: z.string().min(1).optional(),
      /** The agent label; default: the model the source names, else "unknown". */
      agent: z.string().min(1).max(200).optional(),
      /**
       * A tools file for the records that carry no tool schemas of their own (τ-bench; τ²-bench's tool_defs: null):
       * an OpenAI tools list, or JSON / JSONL whose records carry `tools` (τ²-bench's SFT files), merged by name.
       */
      tools: z.string().min(1).max(4096).optional(),
    }),
    result: ImportResult,
  }),
  'trajectories.importIssues': query({
    summary: 'The issues of an import (or run), in order: every refused record with its file and line.',
    input: z.object({
      runId: z.number().int(),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(5000).default(500),
    }),
    output: z.object({ issues: z.array(ImportIssue), total: z.number().int() }),
  }),
  'trajectories.importTrace': mutation({
    summary:
      'Store one Claw-Eval trace (JSONL text) as a trajectory, graded with the shared grader when its task is in ' +
      'the workspace (else kept as external, with a warning). The same trace again in the same collection is a ' +
      'duplicate, not stored twice; an unreadable trace is refused with its bad line numbers and nothing is written.',
    input: z.object({
      traceJsonl: TraceText,
      taskId: z.string().min(1).optional(),
      collection: CollectionName.default('claw-eval-traces'),
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
      'One page of stored trajectories, sorted and filtered in SQL (indexed columns walk their index); total ' +
      'counts the filtered rows. `text` keeps those whose message text matches (FTS5, as trajectories.search).',
    input: pageInput(TrajectorySortField).extend(text),
    output: z.object({
      rows: z.array(TrajectoryRow),
      total: z.number().int(),
      unfiltered: z.number().int().optional(),
    }),
  }),
  'trajectories.values': query({
    summary:
      "A column's distinct values with their counts under the other filters and the text search " +
      "(the set filter's list).",
    input: valuesInput(TrajectorySortField).extend(text),
    output: ValuesOutput,
  }),
  'trajectories.ids': query({
    summary: 'The ids of every trajectory matching the filter and the text search (select all matching), up to limit.',
    input: idsInput(TrajectorySortField).extend(text),
    output: z.object({ ids: z.array(z.number().int()), total: z.number().int() }),
  }),
  'trajectories.get': query({
    summary:
      'One stored trajectory: its row, the canonical Trajectory (read from the stored source record; free-form ' +
      'floats as plain numbers), its grade (null when not graded) and the warnings its import kept with it.',
    input: z.object({ id: z.number().int() }),
    output: z.object({
      row: TrajectoryRow,
      trajectory: Trajectory,
      grade: GradeResult.nullable(),
      warnings: z.array(z.string()),
    }),
  }),
  'trajectories.exportTrace': query({
    summary:
      'The Claw-Eval trace JSONL of a stored trajectory: byte-identical to the imported trace, or written from a ' +
      'trajectory made in the app.',
    input: z.object({ id: z.number().int() }),
    output: z.object({ traceJsonl: z.string() }),
  }),
  'trajectories.search': query({
    summary:
      'Full-text search over message text (user and assistant text, reasoning, tool calls, tool errors): matching ' +
      'ids, best first, each with a snippet. mode "words" finds rows holding every word (prefix with a trailing ' +
      '*); mode "fts" takes SQLite FTS5 query syntax (phrases, OR, NOT, NEAR).',
    input: z.object({
      query: z.string().min(1).max(1000),
      mode: z.enum(['words', 'fts']).default('words'),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(200).default(50),
    }),
    output: z.object({
      hits: z.array(
        z.object({
          id: z.number().int(),
          /** Text around the best match; `highlights` are [start, end) UTF-16 offsets of the matched terms in it. */
          snippet: z.string(),
          highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
        }),
      ),
      total: z.number().int(),
    }),
  }),
  'trajectories.delete': mutation({
    summary:
      'Delete stored trajectories (their bodies and search entries go with them); supersession is recomputed for ' +
      'their tasks.',
    input: z.object({ ids: z.array(z.number().int()).min(1).max(100_000) }),
    output: z.object({ deleted: z.number().int() }),
  }),
  'trajectories.collections': query({
    summary:
      'Every collection: its trajectories, tasks, superseded rows and the collections it supersedes (for grid ' +
      'filters).',
    input: z.object({}).default({}),
    output: z.array(
      z.object({
        name: z.string(),
        trajectories: z.number().int(),
        tasks: z.number().int(),
        superseded: z.number().int(),
        supersedes: z.array(z.string()),
        description: z.string(),
        created_at: z.string(),
      }),
    ),
  }),
} as const;
