import { CHANGE_TOPICS, type ChangeTopic } from './events';
import type { Contract, ProcedureName } from './index';

/** The read procedures: the ones a live query or a grid can follow. */
export type QueryName = { [N in ProcedureName]: Contract[N]['kind'] extends 'query' ? N : never }[ProcedureName];

/**
 * Which change topics invalidate each query's answer: the tables its SQL reads (and that writes announce).
 * One map for the whole contract so the renderer follows procedures, never table names. A query left out
 * refetches on every change: a missing entry costs a refetch, never a stale screen.
 */
export const WATCHES: { readonly [N in QueryName]?: readonly ChangeTopic[] } = {
  'tasks.list': ['tasks'],
  'tasks.values': ['tasks'],
  'tasks.ids': ['tasks'],
  'tasks.get': ['tasks'],
  'tasks.versions': ['tasks'],
  'tasks.fixtureRows': ['tasks'],
  'validation.report': ['tasks', 'validation_reports'],
  'plan.list': ['coverage_slots', 'generation_candidates', 'tasks'],
  'plan.values': ['coverage_slots', 'generation_candidates', 'tasks'],
  'plan.ids': ['coverage_slots', 'generation_candidates', 'tasks'],
  'plan.stats': ['coverage_slots'],
  'generation.coverage': ['tasks', 'coverage_slots'],
  'curation.tasks': ['curation_tasks'],
  'curation.values': ['curation_tasks'],
  'curation.ids': ['curation_tasks'],
  'curation.charts': ['curation_tasks'],
  'curation.log': ['curation_batches'],
  'curation.rules': ['curation_batches'],
  'trajectories.list': ['trajectories'],
  'trajectories.values': ['trajectories'],
  'trajectories.ids': ['trajectories'],
  'trajectories.get': ['trajectories', 'tasks'],
  'trajectories.collections': ['trajectories', 'collections'],
  'runs.list': ['runs', 'jobs'],
  'runs.report': ['trajectories', 'runs'],
  'jobs.list': ['jobs'],
  'endpoints.list': ['endpoints'],
  'grading.judgeSettings': ['workspace_meta', 'endpoints'],
  'upstream.settings': ['workspace_meta', 'tasks'],
  'upstream.agreement': ['trajectories', 'upstream_grades'],
};

/** The topics whose changes make `name`'s answer stale (every topic when the map does not say). */
export const watchedTopics = (name: QueryName): readonly ChangeTopic[] => WATCHES[name] ?? CHANGE_TOPICS;
