import { z } from 'zod';
import { mutation, query } from './define';
import { idsInput, pageInput, valuesInput, ValuesOutput } from './entities/grid-query';
import { ImportOutcome, TaskRow, TaskSortField } from './entities/task';
import { Check, ProhibitedRule } from './entities/checks';

/** A fixture grid column: its type and rules. */
export const FixtureColumn = z.object({
  name: z.string(),
  type: z.enum(['string', 'integer', 'number', 'boolean', 'date', 'enum', 'list', 'json']),
  nullable: z.boolean(),
  required: z.boolean(),
  key: z.boolean(),
  min: z.number().optional(),
  format: z.literal('email').optional(),
  values: z.array(z.string()).optional(),
});
export type FixtureColumn = z.infer<typeof FixtureColumn>;

export const tasksContract = {
  'tasks.list': query({
    summary: 'One page of tasks, sorted and filtered in SQL; total counts the filtered rows.',
    input: pageInput(TaskSortField),
    output: z.object({ rows: z.array(TaskRow), total: z.number().int(), unfiltered: z.number().int().optional() }),
  }),
  'tasks.values': query({
    summary: "A column's distinct values with their counts under the other filters (the set filter's checkbox list).",
    input: valuesInput(TaskSortField),
    output: ValuesOutput,
  }),
  'tasks.ids': query({
    summary: 'The ids of every task matching the filter (select all matching rows), up to limit.',
    input: idsInput(TaskSortField),
    output: z.object({ ids: z.array(z.string()), total: z.number().int() }),
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
      /** Each column's type from the record schema (else from its values): the grid edits it as such. */
      columnTypes: z.array(FixtureColumn),
      /** The record key (unique per fixture), if the service has one. */
      key: z.string().nullable(),
      version: z.number().int(),
    }),
  }),
  'tasks.updateFixtureCell': mutation({
    summary:
      'Set one field of one fixture record (value as JSON text; empty = remove an optional field). The value keeps ' +
      "its column's type (integer, number, boolean, date, enum from the record schema), a record key stays unique, " +
      'a required field cannot be emptied. A valid edit saves the task as a new version and runs its validators ' +
      '(status valid/invalid). `expected` (an undo) is the JSON text the cell must still hold, else CONFLICT.',
    input: z.object({
      taskId: z.string().min(1),
      service: z.string().min(1),
      fixtureEnv: z.string().optional(),
      index: z.number().int().min(0),
      field: z.string().min(1).max(200),
      value: z.string().max(1_000_000),
      expected: z.string().nullable().optional(),
    }),
    output: z.object({
      version: z.number().int(),
      row: z.record(z.string(), z.string()),
      /** The new version's validation status (null when the value was already there: no new version). */
      status: z.enum(['valid', 'invalid']).nullable(),
    }),
  }),
  'tasks.versionDiff': query({
    summary:
      "What changed in a task's fixtures and checks between two versions (default: the version before): records " +
      'added, removed, and each changed field with its before/after JSON text; checks added, removed or changed.',
    input: z.object({
      taskId: z.string().min(1),
      version: z.number().int().min(1),
      against: z.number().int().min(1).optional(),
    }),
    output: z.object({
      taskId: z.string(),
      version: z.number().int(),
      against: z.number().int().nullable(),
      fixtures: z.array(
        z.object({
          service: z.string(),
          env: z.string(),
          added: z.array(z.object({ record: z.number().int(), key: z.string().nullable() })),
          removed: z.array(z.object({ record: z.number().int(), key: z.string().nullable() })),
          changed: z.array(
            z.object({
              record: z.number().int(),
              key: z.string().nullable(),
              field: z.string(),
              before: z.string().nullable(),
              after: z.string().nullable(),
            }),
          ),
        }),
      ),
      /** Checks added, removed or changed (JSON text), for versions whose spec was kept (migration 0020). */
      checks: z.array(
        z.object({
          id: z.string(),
          change: z.enum(['added', 'removed', 'changed']),
          before: z.string().nullable(),
          after: z.string().nullable(),
        }),
      ),
    }),
  }),
  'tasks.revert': mutation({
    summary:
      "Make a new version of a task whose checks and fixtures equal an earlier version's (nothing is erased: the " +
      'versions in between stay); the new version is validated, and restored checks re-grade the trajectories ' +
      'of the task. With expectedVersion (an undo), a newer version by another writer is a CONFLICT.',
    input: z.object({
      taskId: z.string().min(1),
      version: z.number().int().min(1),
      expectedVersion: z.number().int().min(1).optional(),
    }),
    output: z.object({
      version: z.number().int(),
      status: z.enum(['valid', 'invalid']),
      /** The checks (spec) were restored too: the task's graded trajectories were re-graded. */
      checksRestored: z.boolean(),
      regraded: z.number().int(),
      changed: z.number().int(),
      meanBefore: z.number().nullable(),
      meanAfter: z.number().nullable(),
    }),
  }),
} as const;
