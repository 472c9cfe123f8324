import { z } from 'zod';
import { mutation, query } from './define';
import { pageInput } from './entities/grid-query';
import { ImportOutcome, TaskRow, TaskSortField } from './entities/task';
import { Check, ProhibitedRule } from './entities/checks';

export const tasksContract = {
  'tasks.list': query({
    summary: 'One page of tasks, sorted and filtered in SQL; total counts the filtered rows.',
    input: pageInput(TaskSortField),
    output: z.object({ rows: z.array(TaskRow), total: z.number().int() }),
  }),
  'tasks.get': query({
    summary:
      'One task: its row, the full spec (every task.yaml field kept) and its fixture files (without their records).',
    input: z.object({ taskId: z.string().min(1) }),
    output: z.object({
      row: TaskRow,
      spec: z.record(z.string(), z.unknown()),
      fixtures: z.array(
        z.object({
          service: z.string(),
          env: z.string(),
          setByTask: z.boolean(),
          source: z.string(),
          records: z.number().int(),
        }),
      ),
    }),
  }),
  'tasks.import': mutation({
    summary:
      'Import Claw-Eval task folders or a Claw-Eval root holding tasks/. Each task is validated on its own: one ' +
      'broken task is reported and the others still import. Re-importing updates by content hash, never duplicates.',
    input: z.object({ paths: z.array(z.string().min(1)).min(1).max(1000) }),
    output: z.object({
      outcomes: z.array(ImportOutcome),
      counts: z.object({
        imported: z.number().int(),
        updated: z.number().int(),
        unchanged: z.number().int(),
        errors: z.number().int(),
        warnings: z.number().int(),
      }),
    }),
  }),
  'tasks.checks': query({
    summary:
      'The checks and prohibited rules the shared grader uses for a task; for imported Claw-Eval tasks they are ' +
      'derived from task.yaml (origin says so) with notes on what could not be derived.',
    input: z.object({ taskId: z.string().min(1) }),
    output: z.object({
      origin: z.enum(['authored', 'derived_from_task_yaml']),
      checks: z.array(Check),
      prohibited: z.array(ProhibitedRule),
      notes: z.array(z.string()),
    }),
  }),
  'tasks.versions': query({
    summary: "A task's versions, newest first, with why each was made.",
    input: z.object({ taskId: z.string().min(1) }),
    output: z.array(
      z.object({ version: z.number().int(), content_hash: z.string(), reason: z.string(), created_at: z.string() }),
    ),
  }),
  'tasks.fixtureRows': query({
    summary:
      "One service's fixture records as grid rows: each value as JSON text written the Python way (328.0 stays " +
      '328.0), the columns in first-seen order.',
    input: z.object({ taskId: z.string().min(1), service: z.string().min(1), fixtureEnv: z.string().optional() }),
    output: z.object({
      columns: z.array(z.string()),
      rows: z.array(z.record(z.string(), z.string())),
      requiredColumns: z.array(z.string()),
    }),
  }),
  'tasks.updateFixtureCell': mutation({
    summary:
      'Set one field of one fixture record (value as JSON text; empty = remove the field). The record is validated ' +
      "against the service's record schema; a valid edit saves the task as a new version.",
    input: z.object({
      taskId: z.string().min(1),
      service: z.string().min(1),
      fixtureEnv: z.string().optional(),
      index: z.number().int().min(0),
      field: z.string().min(1).max(200),
      value: z.string().max(1_000_000),
    }),
    output: z.object({ version: z.number().int(), row: z.record(z.string(), z.string()) }),
  }),
} as const;
