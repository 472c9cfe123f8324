import type { Matcher } from '../../../shared/contract/entities/checks';
import type { TaskSpec } from '../../../shared/contract/entities/task-spec';
import { seededRandom } from '../services/lib';
import { isObject, PyFloat, type PyObject, type PyValue } from '../py/pyjson';

/**
 * Seeded perturbations of a reference plan, so the reference agent can stand in for an imperfect
 * agent (demos, curation tests): a step skipped, a step with one wrong argument, an extra call
 * that breaks a prohibited rule. Rates are probabilities: per step for the first two, per
 * trajectory for the third. The same (task, trial, seed) always gives the same plan.
 */
export type PerturbationRates = { skip_step: number; wrong_argument: number; prohibited_call: number };
export const NO_PERTURBATIONS: PerturbationRates = { skip_step: 0, wrong_argument: 0, prohibited_call: 0 };

export type PlanCall = { tool: string; args: PyObject };
export type Applied =
  | { kind: 'skip_step'; step: number; tool: string }
  | { kind: 'wrong_argument'; step: number; tool: string; argument: string; from: PyValue; to: PyValue }
  | { kind: 'prohibited_call'; position: number; tool: string; rule: string };

/** FNV-1a over the text: the seed of one episode's random stream. */
export function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A value that is plausibly wrong: the neighbouring id or date, another recipient, a cut text, a flipped flag. */
export function wrongValue(v: PyValue): PyValue | undefined {
  if (typeof v === 'string') {
    const email = /^([^@\s]+)@([^@\s]+)$/.exec(v);
    if (email) return `${email[1]}2@${email[2]}`;
    const num = /^(.*?)(\d+)$/.exec(v);
    if (num) {
      const next = String(BigInt(num[2]!) + 1n).padStart(num[2]!.length, '0');
      return num[1] + next;
    }
    if (v.length > 1) return [...v].slice(0, Math.ceil([...v].length / 2)).join('');
    return v ? `${v}${v}` : 'x';
  }
  if (typeof v === 'number') return v + 1;
  if (v instanceof PyFloat) return new PyFloat(v.value * 2 || 1);
  if (typeof v === 'boolean') return !v;
  if (Array.isArray(v)) return v.length > 1 ? v.slice(0, -1) : [];
  if (isObject(v)) return Object.keys(v).length ? {} : undefined;
  return undefined;
}

/** Arguments that satisfy a rule's matchers, or undefined when a matcher cannot be satisfied by construction. */
function argsFor(fields: Record<string, Matcher> | undefined): PyObject | undefined {
  const out: PyObject = {};
  for (const [path, m] of Object.entries(fields ?? {})) {
    let v: PyValue | undefined;
    if ('equals' in m) v = m.equals as PyValue;
    else if ('one_of' in m) v = m.one_of[0] as PyValue;
    else if ('contains' in m) v = m.contains as string;
    else if ('exists' in m) v = m.exists ? 'x' : undefined;
    else if ('range' in m) v = m.range.min ?? m.range.max ?? 0;
    else return undefined; // a regex: no value is built from it
    if (v === undefined) continue;
    // "a.b" matchers name nested fields.
    const keys = path.split('.');
    let o = out;
    for (const k of keys.slice(0, -1)) o = (isObject(o[k]) ? o[k] : (o[k] = {})) as PyObject;
    o[keys[keys.length - 1]!] = v;
  }
  return out;
}

/** A call that breaks `rule`, built from the plan's own values where the rule does not say. */
function prohibitedCall(spec: TaskSpec, plan: readonly PlanCall[], rule: TaskSpec['prohibited'][number]) {
  if (rule.kind === 'tool') {
    const fixed = argsFor(rule.args);
    if (!fixed) return undefined;
    const props = spec.tools.find((t) => t.name === rule.tool)?.input_schema.properties;
    const base: PyObject = {};
    for (const k of Object.keys(isObject(props as PyValue) ? (props as PyObject) : {})) {
      const from = plan.find((s) => k in s.args);
      if (from) base[k] = from.args[k]!;
    }
    return { tool: rule.tool, args: { ...base, ...fixed }, rule: `prohibited tool ${rule.tool}` };
  }
  // A rule on what the assistant writes: no call breaks it.
  if (rule.kind === 'assistant_text') return undefined;
  // A judge-decided rule: only the judge says which call breaks it.
  if (rule.kind === 'judge') return undefined;
  // An audit rule: the plan step of that service whose arguments share most with the rule's fields writes it.
  const fixed = argsFor(rule.fields);
  if (!fixed) return undefined;
  const keys = Object.keys(fixed);
  let best: PlanCall | undefined;
  let bestShared = -1;
  for (const s of plan.filter((p) => p.tool.startsWith(`${rule.service}_`))) {
    const shared = keys.filter((k) => k in s.args).length;
    if (shared >= bestShared) [best, bestShared] = [s, shared];
  }
  if (!best) return undefined;
  return {
    tool: best.tool,
    args: { ...best.args, ...fixed },
    rule: `prohibited ${rule.service}.${rule.action_key} record`,
  };
}

/**
 * The calls the reference agent makes in one episode and the perturbations applied. Every step
 * draws the same random numbers whatever the rates, so raising one rate does not reshuffle the others.
 */
export function perturbedPlan(
  spec: TaskSpec,
  trial: number,
  seed: number,
  rates: PerturbationRates,
): { calls: PlanCall[]; applied: Applied[] } {
  const plan: PlanCall[] = (spec.reference_plan ?? []).map((s) => ({ tool: s.tool, args: s.args as PyObject }));
  const rnd = seededRandom(fnv(`${spec.task_id}\u0000${trial}\u0000${seed}`));
  const applied: Applied[] = [];
  const calls: PlanCall[] = [];
  plan.forEach((step, i) => {
    const [skip, wrong, pick] = [rnd(), rnd(), rnd()];
    if (skip < rates.skip_step) {
      applied.push({ kind: 'skip_step', step: i, tool: step.tool });
      return;
    }
    if (wrong < rates.wrong_argument) {
      const keys = Object.keys(step.args).filter((k) => wrongValue(step.args[k]!) !== undefined);
      if (keys.length) {
        const key = keys[Math.floor(pick * keys.length)]!;
        const to = wrongValue(step.args[key]!)!;
        applied.push({ kind: 'wrong_argument', step: i, tool: step.tool, argument: key, from: step.args[key]!, to });
        calls.push({ tool: step.tool, args: { ...step.args, [key]: to } });
        return;
      }
    }
    calls.push(step);
  });
  const [extra, which, where] = [rnd(), rnd(), rnd()];
  if (extra < rates.prohibited_call) {
    const options = spec.prohibited.flatMap((r) => prohibitedCall(spec, plan, r) ?? []);
    const c = options[Math.floor(which * options.length)];
    if (c) {
      const position = Math.floor(where * (calls.length + 1));
      calls.splice(position, 0, { tool: c.tool, args: c.args });
      applied.push({ kind: 'prohibited_call', position, tool: c.tool, rule: c.rule });
    }
  }
  return { calls, applied };
}
