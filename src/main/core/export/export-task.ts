import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import type { Environment, EnvironmentSpec } from '../services/environment';
import { environmentForSpec, storedTaskSpec } from '../tasks/task-spec-of';
import type { tasksRepo } from '../tasks/tasks.repo';

/** A fixture file of a stored task; `source` is its root-relative path (imported Claw-Eval tasks). */
export type ExportFixture = { service: string; env: string; content: string; source?: string };

/**
 * A task as the exporters take it: plain data the caller reads from the workspace first (the spec
 * as `storedTaskSpec` gives it — imported tasks with checks derived from their task.yaml — and the
 * stored fixture files). Nothing here touches the database.
 */
export type ExportTask = {
  spec: TaskSpec;
  fixtures: ExportFixture[];
  origin: 'imported' | 'generated' | 'manual';
  /** Imported Claw-Eval tasks: task.yaml exactly as it was imported (written back verbatim). */
  sourceYaml?: string;
  version?: number;
  contentHash?: string;
  sourcePath?: string;
  /** What the check derivation said (imports), kept in the package for the reader. */
  notes?: string[];
};

/**
 * The clock an exported task's environment runs on: generated tasks are pinned to the morning of
 * their reference date (as validation runs them); other tasks to `fallback` (the export's clock),
 * so every episode of a package sees the same dates (gmail/calendar shift fixture dates by "now").
 */
export function taskClock(spec: TaskSpec, fallback: Date): Date {
  return spec.reference_date ? new Date(`${spec.reference_date}T09:00:00Z`) : fallback;
}

/** A fresh environment of an export task (the same construction the app's validation uses). */
export function freshEnvironment(
  task: Pick<ExportTask, 'spec' | 'fixtures'>,
  clock: Date,
  o: { mode?: EnvironmentSpec['mode']; errors?: EnvironmentSpec['errors'] } = {},
): Environment {
  return environmentForSpec(task.spec, task.fixtures, () => clock, o);
}

/**
 * A stored task as the exporters take it (for the handlers that feed them): the spec as the app
 * grades it, the fixture files with their root-relative sources, the imported task.yaml verbatim.
 */
export function storedExportTask(repo: ReturnType<typeof tasksRepo>, taskId: string): ExportTask {
  const { spec, fixtures, notes } = storedTaskSpec(repo, taskId);
  const t = repo.get(taskId)!;
  const sources = new Map(repo.fixtures(taskId).map((f) => [`${f.service}\0${f.env}`, f.source]));
  return {
    spec,
    fixtures: fixtures.map((f) => {
      const source = sources.get(`${f.service}\0${f.env}`);
      return { service: f.service, env: f.env, content: f.content, ...(source ? { source } : {}) };
    }),
    origin: t.row.origin as ExportTask['origin'],
    ...(t.row.origin === 'imported' ? { sourceYaml: t.sourceYaml } : {}),
    version: t.row.version,
    contentHash: t.row.content_hash,
    ...(t.row.source_path ? { sourcePath: t.row.source_path } : {}),
    notes,
  };
}
