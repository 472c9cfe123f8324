import type { Verdict } from '../../../shared/contract/validation.contract';
import { SERVICE_REGISTRY, serviceOnPort } from '../services/registry';
import { verdict, type Message, type ValidationInput } from './types';

/**
 * The service a tool endpoint reaches: the task's service listening on the URL's port, as the Environment routes it.
 */
function endpointTarget(
  spec: ValidationInput['spec'],
  url: string,
): { service?: string; path?: string; problem?: string } {
  if (!URL.canParse(url)) return { problem: `"${url}" is not a URL` };
  const u = new URL(url);
  const port = Number(u.port || 80);
  const svc = serviceOnPort(spec.services, port);
  if (!svc)
    return {
      problem:
        `port ${port} is not the port of any of the task's services ` +
        `(${spec.services.map((s) => s.name).join(', ') || 'none'})`,
    };
  return { service: svc.name, path: u.pathname };
}

/** An audit check or prohibited audit rule names a service of the task and one of its audit keys. */
function auditTarget(
  spec: ValidationInput['spec'],
  service: string,
  actionKey: string,
  at: string,
  out: Message[],
): void {
  const def = SERVICE_REGISTRY.get(service);
  if (!def) return void out.push({ field: `${at}.service`, message: `unknown service "${service}"` });
  if (!spec.services.some((s) => s.name === service))
    out.push({
      field: `${at}.service`,
      message: `service "${service}" is not one of the task's services, so its audit is always empty`,
    });
  if (!def.actionKeys.includes(actionKey))
    out.push({
      field: `${at}.action_key`,
      message:
        `${service} has no audit key "${actionKey}" (its keys: ${def.actionKeys.join(', ') || 'none'}), so ` +
        `${service}.${actionKey} is always empty`,
    });
}

/**
 * Validator 4: every offered tool has an endpoint whose route exists in the service it reaches; no
 * check requires a prohibited tool; every tool a check or the reference plan needs is offered;
 * audit checks and prohibited audit rules name a registered service of the task and one of its
 * audit keys (upstream's gmail.sent is such a defect: it never exists).
 */
export function toolConstraints({ spec }: ValidationInput): Verdict {
  const out: Message[] = [];
  const offered = new Set(spec.tools.map((t) => t.name));
  spec.tools.forEach((t, i) => {
    const j = spec.tool_endpoints.findIndex((e) => e.tool_name === t.name);
    if (j < 0)
      return void out.push({
        field: `tools.${i}.name`,
        message: `tool "${t.name}" is offered but has no entry in tool_endpoints`,
      });
    const target = endpointTarget(spec, spec.tool_endpoints[j]!.url);
    if (target.problem)
      return void out.push({ field: `tool_endpoints.${j}.url`, message: `tool "${t.name}": ${target.problem}` });
    const def = SERVICE_REGISTRY.get(target.service!);
    if (def && !def.routes[target.path!])
      out.push({
        field: `tool_endpoints.${j}.url`,
        message:
          `tool "${t.name}" is offered but ${def.id} has no route ${target.path} (its routes: ` +
          `${Object.keys(def.routes).join(', ')})`,
      });
  });
  const prohibitedTools = new Map<string, number>();
  // Only a rule on every call of a tool forbids it; one with argument matchers (T019: an order of a well-stocked
  // item) leaves the right calls allowed.
  spec.prohibited.forEach(
    (r, k) => r.kind === 'tool' && !r.args && !prohibitedTools.has(r.tool) && prohibitedTools.set(r.tool, k),
  );
  spec.checks.forEach((c, i) => {
    if (c.kind === 'tool_called') {
      const k = prohibitedTools.get(c.tool);
      if (k !== undefined)
        out.push({
          field: `checks.${i}.tool`,
          message: `check "${c.id}" requires ${c.tool}, which prohibited.${k} forbids: no run can be complete and safe`,
        });
      if (!offered.has(c.tool))
        out.push({
          field: `checks.${i}.tool`,
          message: `check "${c.id}" needs ${c.tool}, which is not offered (tools)`,
        });
    }
    if (c.kind === 'audit') auditTarget(spec, c.service, c.action_key, `checks.${i}`, out);
  });
  spec.prohibited.forEach(
    (r, k) => r.kind === 'audit' && auditTarget(spec, r.service, r.action_key, `prohibited.${k}`, out),
  );
  (spec.reference_plan ?? []).forEach((s, k) => {
    if (!offered.has(s.tool))
      out.push({
        field: `reference_plan.${k}.tool`,
        message: `the reference plan calls ${s.tool}, which is not offered (tools)`,
      });
  });
  return verdict('tool_constraints', out);
}
