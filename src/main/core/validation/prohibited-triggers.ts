import type { Matcher, ProhibitedRule } from '../../../shared/contract/entities/checks';
import { grade } from '../grading/grade';
import { matchFields } from '../grading/matchers';
import type { Environment } from '../services/environment';
import type { PyValue } from '../py/pyjson';
import { SERVICE_REGISTRY } from '../services/registry';
import type { ValidationInput } from './types';

/** A value the matcher accepts, or undefined when none can be written down (a real regex). */
function sampleFor(m: Matcher): { value?: unknown; omit?: true } | undefined {
  if ('equals' in m) return { value: m.equals };
  if ('one_of' in m) return { value: m.one_of[0] };
  if ('contains' in m) return { value: m.contains };
  if ('exists' in m) return m.exists ? { value: 'x' } : { omit: true };
  if ('range' in m) return { value: m.range.min ?? m.range.max ?? 0 };
  if ('includes_all' in m) return { value: m.includes_all };
  // A value listed nowhere: what the allowed list leaves out.
  if ('any_not_in' in m) return { value: `not-${m.any_not_in.map(String).join('-')}` };
  if ('outside' in m) return { value: Math.max(...m.outside.map((r) => r.max ?? r.min ?? 0)) + 1 };
  // A regex that is a literal (anchors and escapes aside) is its own sample.
  const lit = m.regex.replace(/^\^/, '').replace(/\$$/, '');
  if (/^(?:[^.*+?^${}()|[\]\\]|\\[.*+?^${}()|[\]\\/-])*$/.test(lit)) return { value: lit.replace(/\\(.)/g, '$1') };
  return undefined;
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown, omit: boolean): void {
  const parts = path.split('.');
  let cur = obj;
  for (const p of parts.slice(0, -1)) {
    const next = cur[p];
    cur = cur[p] =
      next && typeof next === 'object' && !Array.isArray(next) ? { ...(next as Record<string, unknown>) } : {};
  }
  if (omit) delete cur[parts.at(-1)!];
  else cur[parts.at(-1)!] = value;
}

/**
 * Arguments for a probing call: the plan's own arguments for that tool (so required fields are there), then the rule's
 * targets.
 */
export function argsFor(
  spec: ValidationInput['spec'],
  tool: string,
  fields: Record<string, Matcher> | undefined,
): Record<string, unknown> | undefined {
  const planArgs = [...(spec.reference_plan ?? [])].reverse().find((s) => s.tool === tool)?.args ?? {};
  const args: Record<string, unknown> = structuredClone(planArgs);
  for (const [path, m] of Object.entries(fields ?? {})) {
    const s = sampleFor(m);
    if (!s) return undefined;
    setPath(args, path, s.value, s.omit === true);
  }
  return args;
}

/** Offered tools whose endpoint reaches `service` (by the port the Environment routes on). */
function toolsOf(spec: ValidationInput['spec'], service: string): string[] {
  const svc = spec.services.find((s) => s.name === service);
  const port = svc?.port ?? SERVICE_REGISTRY.get(service)?.port;
  const offered = new Set(spec.tools.map((t) => t.name));
  return spec.tool_endpoints
    .filter((e) => offered.has(e.tool_name) && URL.canParse(e.url) && Number(new URL(e.url).port || 80) === port)
    .map((e) => e.tool_name);
}

const auditLength = (env: Environment, service: string, key: string) => {
  const list = env.audits()[service]?.[key];
  return Array.isArray(list) ? list.length : 0;
};

/**
 * Can this prohibited rule fire? One call after the plan (or in a fresh environment without
 * one): a tool rule by calling its tool with arguments its matchers accept (an attempted call
 * counts, whatever the status), an audit rule by calling each offered tool of its service until
 * a new matching record appears. Answers undefined when it fired, else why not.
 */
export function trigger(env: Environment, spec: ValidationInput['spec'], rule: ProhibitedRule): string | undefined {
  if (rule.kind === 'tool') {
    const args = argsFor(spec, rule.tool, rule.args);
    if (!args || !matchFields(args, rule.args))
      return `no call of ${rule.tool} can be built whose arguments its matchers accept`;
    const d = env.call(rule.tool, args as PyValue);
    // Graded as the grader would: the one call alone must zero safety.
    return grade({ checks: [], prohibited: [rule] }, { dispatches: [d], finalText: '', audits: {} }).safety === 0
      ? undefined
      : `a call of ${rule.tool} did not zero safety`;
  }
  // Any answer can contain the prohibited text (or do what a judged rule forbids): the rule can always fire.
  if (rule.kind === 'assistant_text' || rule.kind === 'judge') return undefined;
  const candidates = toolsOf(spec, rule.service);
  if (!candidates.length)
    return `no offered tool reaches ${rule.service}, so no ${rule.service}.${rule.action_key} record can appear`;
  for (const tool of candidates) {
    const args = argsFor(spec, tool, rule.fields);
    if (!args) return `no arguments can be built from the matchers of its fields`;
    const before = auditLength(env, rule.service, rule.action_key);
    env.call(tool, args as PyValue);
    const list = (env.audits()[rule.service]?.[rule.action_key] ?? []) as unknown[];
    if (list.slice(before).some((r) => matchFields(r, rule.fields))) return undefined;
  }
  return (
    `none of ${candidates.join(', ')} (after the plan, with arguments built from its field matchers) produced a ` +
    `matching ${rule.service}.${rule.action_key} record`
  );
}
