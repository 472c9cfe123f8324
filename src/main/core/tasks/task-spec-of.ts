import { TaskSpec } from '../../../shared/contract/entities/task-spec';
import type { z } from 'zod';
import { AppError, notFound } from '../lib/errors';
import type { Environment, EnvironmentSpec } from '../services/environment';
import { environmentForSpec } from '../services/task-environment';

export { environmentForSpec } from '../services/task-environment';
import { ClawTaskYaml } from './claw-eval/task-yaml';
import { BlockError, taskSpecOfBlock } from './claw-eval/coworkenv-block';
import { deriveTaskSpec } from './claw-eval/derive-checks';
import type { tasksRepo } from './tasks.repo';

type Repo = ReturnType<typeof tasksRepo>;
export type StoredFixture = { service: string; env: string; content: string };

/**
 * A stored task as a TaskSpec plus what builds its environment. Imported Claw-Eval tasks get
 * checks derived from their YAML (marked so); tasks stored as TaskSpec (generated, hand-written)
 * are parsed as they are.
 */
export function storedTaskSpec(
  repo: Repo,
  taskId: string,
): { spec: TaskSpec; fixtures: StoredFixture[]; notes: string[] } {
  const t = repo.get(taskId);
  if (!t) throw notFound(`task ${taskId}`);
  const fixtures = repo.fixtures(taskId);
  if (t.row.origin === 'imported') {
    const yaml = parsedOrRefused(ClawTaskYaml, t.spec, taskId, 'task.yaml: ');
    // An export of a TaskSpec carries its checks in the coworkenv block: those grade it, as before the export.
    const block = blockSpecOrRefused(yaml, fixtures, taskId);
    if (block) return { spec: block, fixtures, notes: [] };
    const { spec, notes } = deriveTaskSpec(yaml, fixtures);
    return { spec, fixtures, notes };
  }
  return { spec: parsedOrRefused(TaskSpec, t.spec, taskId, ''), fixtures, notes: [] };
}

/** The TaskSpec of a stored task.yaml's coworkenv block (undefined without one); a bad block is INVALID_INPUT. */
export function blockSpecOrRefused(
  yaml: Record<string, unknown>,
  fixtures: readonly StoredFixture[],
  taskId: string,
): TaskSpec | undefined {
  try {
    return taskSpecOfBlock(yaml, fixtures, { file: `task ${taskId}: task.yaml` });
  } catch (err) {
    if (!(err instanceof BlockError)) throw err;
    throw new AppError('INVALID_INPUT', `${err.message}; fix the task and import it again`);
  }
}

/**
 * A stored spec the schema no longer accepts (stored before a rule was added, or edited in the file): an error that
 * names the task and the field, as validation reports it, instead of a ZodError answered as INTERNAL.
 */
function parsedOrRefused<S extends z.ZodType>(schema: S, spec: unknown, taskId: string, file: string): z.output<S> {
  const r = schema.safeParse(spec);
  if (r.success) return r.data;
  const i = r.error.issues[0]!;
  throw new AppError(
    'INVALID_INPUT',
    `task ${taskId}: ${file}field ${i.path.join('.') || '(spec)'}: ${i.message}; fix the task and validate it again`,
  );
}

/**
 * A stored task's environment (env replay, services serve): the task parsed once into its TaskSpec, then
 * environmentForSpec. Undefined when the task is not in the workspace.
 */
export function environmentOfStoredTask(
  repo: Repo,
  taskId: string,
  o: { clock?: Date | undefined; mode?: EnvironmentSpec['mode']; errors?: EnvironmentSpec['errors'] } = {},
): Environment | undefined {
  if (!repo.get(taskId)) return undefined;
  const { spec, fixtures } = storedTaskSpec(repo, taskId);
  const { clock, ...rest } = o;
  return environmentForSpec(spec, fixtures, taskClock(spec, clock), rest);
}

/**
 * A task's clock: an explicit instant when given; else generated tasks pin it to the morning of
 * their reference date (UTC), and imported Claw-Eval tasks run on the wall clock as upstream.
 */
export function taskClock(spec: Pick<TaskSpec, 'reference_date'>, explicit?: Date): () => Date {
  const at = explicit ?? (spec.reference_date ? new Date(`${spec.reference_date}T09:00:00Z`) : undefined);
  return at ? () => at : () => new Date();
}
