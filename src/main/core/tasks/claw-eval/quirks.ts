import { SERVICE_REGISTRY, serviceOnPort } from '../../services/registry';
import type { ClawTaskYaml } from './task-yaml';

/** Sandbox tools run in Claw-Eval's container, not in a mock (§4.6). */
const SANDBOX_TOOLS = new Set([
  'Bash',
  'Read',
  'Write',
  'Edit',
  'Glob',
  'Grep',
  'BrowserScreenshot',
  'ReadMedia',
  'Download',
]);

/**
 * The schema/server mismatches of reference/claw-eval.md §7.2 and §13, found by comparing the
 * task's tools and endpoints with our services' routes. Reported, never repaired (parity).
 */
export function quirkWarnings(spec: ClawTaskYaml): string[] {
  const out: string[] = [];
  for (const s of spec.services)
    if (!SERVICE_REGISTRY.has(s.name))
      out.push(
        `service ${s.name} is not re-hosted here (only the 13 business mocks and the fixture web search are); its ` +
          `tools cannot answer`,
      );
  const endpoints = new Map(spec.tool_endpoints.map((e) => [e.tool_name, e]));
  for (const tool of spec.tools) {
    const ep = endpoints.get(tool.name);
    if (!ep) {
      if (!SANDBOX_TOOLS.has(tool.name))
        out.push(`tool ${tool.name} has no endpoint: every call answers "unknown tool" (404)`);
      continue;
    }
    let url: URL;
    try {
      url = new URL(ep.url);
    } catch {
      out.push(`tool ${tool.name}: endpoint ${ep.url} is not a URL`);
      continue;
    }
    const svcName = serviceOnPort(spec.services, Number(url.port || 80))?.name;
    const def = svcName ? SERVICE_REGISTRY.get(svcName) : undefined;
    if (!svcName) {
      out.push(`tool ${tool.name}: no service of this task listens on port ${url.port}; calls fail to connect`);
      continue;
    }
    if (!def) continue;
    const route = def.routes[url.pathname];
    if (!route) {
      out.push(
        `tool ${tool.name} → ${url.pathname}: the route does not exist in ${svcName}; every call answers 404 (Q7)`,
      );
      continue;
    }
    const props = Object.keys((tool.input_schema.properties as Record<string, unknown> | undefined) ?? {});
    const missing = Object.entries(route.model)
      .filter(([k, f]) => !('default' in f) && !props.includes(k))
      .map(([k]) => k);
    if (missing.length)
      out.push(
        `tool ${tool.name}: ${url.pathname} requires ${missing.join(', ')}, which the tool's schema does not offer ` +
          `(422 unless the model invents ${missing.length > 1 ? 'them' : 'it'})`,
      );
    const ignored = props.filter((p) => !(p in route.model));
    if (ignored.length) out.push(`tool ${tool.name}: ${url.pathname} ignores the schema's ${ignored.join(', ')}`);
  }
  for (const a of spec.expected_actions) {
    const def = SERVICE_REGISTRY.get(a.service);
    if (def && !def.actionKeys.includes(a.action_key))
      out.push(
        `expected action ${a.service}.${a.action_key} never exists in ${a.service}'s audit (Q9); graders reading it ` +
          `get []`,
      );
  }
  return out;
}
