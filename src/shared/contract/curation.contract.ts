import { z } from 'zod';
import { mutation, query } from './define';
import {
  BatchResult,
  CurationBatch,
  CurationBucket,
  CurationChange,
  CurationField,
  CurationRule,
  CurationTaskRow,
  CurationWhere,
  LogField,
  Reason,
  TaskSelection,
  TrajectorySelection,
} from './entities/curation';
import { idsInput, pageInput, valuesInput, ValuesOutput } from './entities/grid-query';

export { CurationBucket, CurationField, CurationRule, CurationTaskRow, TaskSelection };

/** An edit of one pool's rule: the fields given change, the others stay. */
export const RuleEdit = CurationRule.omit({ updatedAt: true }).partial().required({ pool: true });

const Counts = z.array(z.object({ key: z.string(), bucket: z.string(), count: z.number().int() }));

export const curationContract = {
  'curation.tasks': query({
    summary:
      'One page of the curation grid: every task with trajectories, its statistics over attempts (mean ' +
      'completion — a mean of fractional values, not a success rate — variance, mean score, Pass@k, Pass^k, ' +
      'best trial), its suggested and assigned bucket; sorted and filtered in SQL.',
    input: pageInput(CurationField),
    output: z.object({
      rows: z.array(CurationTaskRow),
      total: z.number().int(),
      unfiltered: z.number().int().optional(),
    }),
  }),
  'curation.values': query({
    summary: "A curation column's distinct values with their counts under the other filters (the set filter).",
    input: valuesInput(CurationField),
    output: ValuesOutput,
  }),
  'curation.ids': query({
    summary: 'The task ids matching a curation filter (select all matching rows), up to limit.',
    input: idsInput(CurationField),
    output: z.object({ ids: z.array(z.string()), total: z.number().int() }),
  }),
  'curation.rules': query({
    summary: 'The bucket rules of every pool (thresholds, Pass@k k).',
    input: z.object({}).default({}),
    output: z.array(CurationRule),
  }),
  'curation.setRule': mutation({
    summary:
      "Edit one pool's bucket thresholds (logged with the reason, before and after); the suggestions of its " +
      'tasks are recomputed at once.',
    input: RuleEdit.extend({ reason: Reason }),
    output: z.object({ rule: CurationRule, batchId: z.number().int() }),
  }),
  'curation.previewRule': query({
    summary:
      "What an edit of one pool's thresholds would do, without applying it: how many of the pool's tasks would " +
      'get another suggested bucket (from → to), and how many assigned buckets would then differ from it.',
    input: RuleEdit,
    output: z.object({
      pool: z.string(),
      tasks: z.number().int(),
      changed: z.number().int(),
      transitions: z.array(
        z.object({ from: CurationBucket.nullable(), to: CurationBucket.nullable(), count: z.number().int() }),
      ),
      assignedDiffer: z.number().int(),
    }),
  }),
  'curation.recompute': mutation({
    summary: 'Recompute the statistics and suggestions of every task from its trajectories.',
    input: z.object({}).default({}),
    output: z.object({ tasks: z.number().int() }),
  }),
  'curation.assign': mutation({
    summary:
      'Assign a bucket (null clears it) to the selected tasks, by ids, filter or all, in one transaction; the ' +
      'trajectories carry the new bucket; logged with the reason, OS user, before/after and the selection; ' +
      'answers the batch id and the number of tasks changed.',
    input: z.object({ bucket: CurationBucket.nullable(), select: TaskSelection, reason: Reason }),
    output: BatchResult,
  }),
  'curation.applySuggestions': mutation({
    summary:
      'Assign each selected task its suggested bucket (tasks without a suggestion are left as they are); one ' +
      'logged batch.',
    input: z.object({
      select: TaskSelection,
      reason: Reason,
      /** Also replace buckets already assigned; by default only tasks without a bucket get their suggestion. */
      replaceAssigned: z.boolean().default(false),
    }),
    output: BatchResult,
  }),
  'curation.preview': query({
    summary:
      'What a bulk action would change, without changing anything: the tasks the selection names, how many would ' +
      'change, how many of those hold a bucket or pool now that would be replaced, and (suggestions) how many ' +
      'assigned buckets would be left alone.',
    input: z.object({
      action: z.enum(['assign', 'suggest', 'pool']),
      /** The bucket (assign, null clears) or the pool; unused for suggestions. */
      value: z.string().nullable().default(null),
      select: TaskSelection,
      replaceAssigned: z.boolean().default(false),
    }),
    output: z.object({
      selected: z.number().int(),
      changed: z.number().int(),
      replaced: z.number().int(),
      keptAssigned: z.number().int(),
    }),
  }),
  'curation.setPool': mutation({
    summary: 'Move the selected tasks to a pool (its rules then suggest their bucket); one logged batch.',
    input: z.object({ pool: z.string().min(1).max(100), select: TaskSelection, reason: Reason }),
    output: BatchResult,
  }),
  'curation.override': mutation({
    summary:
      "Set (or clear, with null) trajectories' include/exclude override: 'include' admits a trajectory to " +
      "export whatever its task's bucket, 'exclude' keeps it out; one logged batch.",
    input: z.object({
      override: z.enum(['include', 'exclude']).nullable(),
      select: TrajectorySelection,
      reason: Reason,
    }),
    output: BatchResult,
  }),
  'curation.undo': mutation({
    summary:
      'Undo a batch (default: the latest not undone): its items go back to their value before it, except items ' +
      'a later batch changed since (counted as conflicts). Logged as a batch of its own.',
    input: z.object({ batchId: z.number().int().optional(), reason: z.string().max(2000).optional() }),
    output: BatchResult,
  }),
  'curation.redo': mutation({
    summary: 'Redo an undone batch (default: the one undone last), except items changed since. Logged.',
    input: z.object({ batchId: z.number().int().optional(), reason: z.string().max(2000).optional() }),
    output: BatchResult,
  }),
  'curation.log': query({
    summary:
      'The curation log: one row per bulk action (who, when, why, what it selected, how many changed), newest ' +
      'first by default.',
    input: pageInput(LogField),
    output: z.object({
      rows: z.array(CurationBatch),
      total: z.number().int(),
      unfiltered: z.number().int().optional(),
    }),
  }),
  'curation.batch': query({
    summary: 'One logged batch and its changes (item, before, after).',
    input: z.object({
      id: z.number().int(),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(5000).default(500),
    }),
    output: z.object({ batch: CurationBatch, changes: z.array(CurationChange), total: z.number().int() }),
  }),
  'curation.charts': query({
    summary:
      'Chart data under a curation filter: histograms of mean completion per assigned bucket (10 bins of 0.1) ' +
      'and task counts per bucket by category, service and language.',
    input: CurationWhere,
    output: z.object({
      histogram: z.array(z.object({ bucket: z.string(), bins: z.array(z.number().int()) })),
      category: Counts,
      service: Counts,
      language: Counts,
    }),
  }),
} as const;
