import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import { Environment, type EnvironmentSpec } from './environment';
import { fixtureRecords, type PyValue } from '../py/pyjson';
import { SERVICE_REGISTRY } from './registry';

/** A task's fixture file as stored (imported tasks keep their records as files). */
export type FixtureFileRecords = { service: string; env: string; content: string };

/**
 * The one way to build a task's environment (runs, env replay, services serve, the RL env server, exports): each
 * service of the spec on its declared port with the task's own health check, its records inline in the spec
 * (generated and hand-written tasks) or from its stored fixture file (imports), plus the service's extra fixtures,
 * and the task's tool endpoints. A service the app does not re-host is left out (reported at import); so is an
 * imported task's service without a fixture file, while a spec with inline records gets empty ones.
 */
export function environmentForSpec(
  spec: Pick<TaskSpec, 'services' | 'tool_endpoints'>,
  fixtures: readonly FixtureFileRecords[],
  now: () => Date,
  o: { mode?: EnvironmentSpec['mode']; errors?: EnvironmentSpec['errors'] } = {},
): Environment {
  const inline = spec.services.some((s) => s.records);
  const fixture = (service: string, env: string) => {
    const f = fixtures.find((x) => x.service === service && x.env === env);
    return f ? (fixtureRecords(f) as PyValue[]) : undefined;
  };
  return new Environment({
    now,
    mode: o.mode ?? 'parity',
    ...(o.errors ? { errors: o.errors } : {}),
    services: spec.services.flatMap((s) => {
      const def = SERVICE_REGISTRY.get(s.name);
      if (!def) return [];
      const records = (s.records as PyValue[] | undefined) ?? fixture(s.name, def.fixtureEnv) ?? (inline ? [] : null);
      if (!records) return [];
      const extraRecords = (def.extraFixtures ?? []).map((x) => fixture(s.name, x.env) ?? []);
      const probe = taskProbe(s as { health_check?: unknown; health_check_method?: unknown });
      return [{ id: s.name, records, extraRecords, ...(s.port ? { port: s.port } : {}), ...(probe ? { probe } : {}) }];
    }),
    tools: spec.tool_endpoints.map((e) => ({ name: e.tool_name, url: e.url })),
  });
}

/**
 * The task's own health check; its route can differ between tasks of one service (rss: /rss/feeds or /rss/articles).
 */
function taskProbe(s: {
  health_check?: unknown;
  health_check_method?: unknown;
}): { method: string; path: string } | undefined {
  if (typeof s.health_check !== 'string' || !URL.canParse(s.health_check)) return undefined;
  const method = typeof s.health_check_method === 'string' && s.health_check_method ? s.health_check_method : 'POST';
  return { method, path: new URL(s.health_check).pathname };
}
