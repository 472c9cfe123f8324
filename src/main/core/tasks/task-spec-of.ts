import { TaskSpec } from '../../../shared/contract/entities/task-spec';
import { notFound } from '../lib/errors';
import { Environment, type EnvironmentSpec } from '../services/environment';
import { fixtureRecords, type PyValue } from '../services/pyjson';
import { SERVICE_REGISTRY } from '../services/registry';
import { environmentForTask } from '../services/task-environment';
import { ClawTaskYaml } from './claw-eval/task-yaml';
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
    const { spec, notes } = deriveTaskSpec(ClawTaskYaml.parse(t.spec));
    return { spec, fixtures, notes };
  }
  return { spec: TaskSpec.parse(t.spec), fixtures, notes: [] };
}

/** A fresh environment for a TaskSpec: records inline in the spec (generated tasks) or the stored fixture files (imports). */
export function environmentForSpec(
  spec: TaskSpec,
  fixtures: StoredFixture[],
  now: () => Date,
  o: { mode?: EnvironmentSpec['mode']; errors?: EnvironmentSpec['errors'] } = {},
): Environment {
  const inline = spec.services.filter((s) => s.records);
  if (!inline.length) return environmentForTask({ spec: spec as unknown as Record<string, unknown>, fixtures }, now, o);
  return new Environment({
    now,
    mode: o.mode ?? 'parity',
    ...(o.errors ? { errors: o.errors } : {}),
    services: spec.services.map((s) => {
      const def = SERVICE_REGISTRY.get(s.name);
      const stored = fixtures.find((f) => f.service === s.name && f.env === def?.fixtureEnv);
      const records = (s.records as PyValue[] | undefined) ?? (stored ? (fixtureRecords(stored) as PyValue[]) : []);
      return { id: s.name, records, ...(s.port ? { port: s.port } : {}) };
    }),
    tools: spec.tool_endpoints.map((e) => ({ name: e.tool_name, url: e.url })),
  });
}
