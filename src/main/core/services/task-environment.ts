import { Environment, type EnvironmentSpec } from './environment';
import { fixtureRecords, type PyValue } from './pyjson';
import { SERVICE_REGISTRY } from './registry';

type StoredTask = {
  spec: Record<string, unknown>;
  fixtures: { service: string; env: string; content: string }[];
};

/** The environment of a stored (imported) task: its services on their declared ports, its tool endpoints. */
export function environmentForTask(
  t: StoredTask,
  now: () => Date,
  o: { mode?: EnvironmentSpec['mode']; errors?: EnvironmentSpec['errors'] } = {},
): Environment {
  const services =
    (t.spec.services as
      | { name: string; port: number; health_check?: string; health_check_method?: string }[]
      | undefined) ?? [];
  const endpoints = (t.spec.tool_endpoints as { tool_name: string; url: string }[] | undefined) ?? [];
  const fixture = (service: string, env: string) => {
    const f = t.fixtures.find((x) => x.service === service && x.env === env);
    return f ? (fixtureRecords(f) as PyValue[]) : undefined;
  };
  return new Environment({
    now,
    mode: o.mode ?? 'parity',
    ...(o.errors ? { errors: o.errors } : {}),
    services: services.flatMap((s) => {
      const def = SERVICE_REGISTRY.get(s.name);
      const records = def && fixture(s.name, def.fixtureEnv);
      if (!def || !records) return []; // not re-hosted (reported at import)
      const extraRecords = (def.extraFixtures ?? []).map((x) => fixture(s.name, x.env) ?? []);
      return [{ id: s.name, port: s.port, probe: taskProbe(s), records, extraRecords }];
    }),
    tools: endpoints.map((e) => ({ name: e.tool_name, url: e.url })),
  });
}

/**
 * The task's own health check; its route can differ between tasks of one service (rss: /rss/feeds or /rss/articles).
 */
function taskProbe(s: {
  health_check?: string;
  health_check_method?: string;
}): { method: string; path: string } | undefined {
  if (!s.health_check || !URL.canParse(s.health_check)) return undefined;
  return { method: s.health_check_method || 'POST', path: new URL(s.health_check).pathname };
}
