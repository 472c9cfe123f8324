import type { Matcher, ProhibitedRule } from '../../src/shared/contract/entities/checks';
import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { grade, runRecordFrom } from '../../src/main/core/grading/grade';
import type { GenSlot } from '../../src/main/core/generation/procedural/families/family';
import type { PyValue } from '../../src/main/core/py/pyjson';
import { environmentForSpec } from '../../src/main/core/tasks/task-spec-of';

export const slot = (
  scenario: GenSlot['scenario'],
  services: GenSlot['services'],
  language: GenSlot['language'],
  difficulty: GenSlot['difficulty'] = 'medium',
  id = 7,
): GenSlot => ({
  id,
  family: 'test',
  services,
  category: 'ops',
  difficulty,
  language,
  reference_date: '2026-03-09',
  scenario,
});

/** A fresh environment of the task, clock pinned to its reference date's morning (as validation pins it). */
const fresh = (spec: TaskSpec) => {
  const at = new Date(`${spec.reference_date}T09:00:00Z`);
  return environmentForSpec(spec, [], () => at);
};

/** Grade a run of these calls (and this answer) through the shared grader, on a fresh environment. */
export function gradeCalls(spec: TaskSpec, calls: { tool: string; args: Record<string, unknown> }[], answer = '') {
  const env = fresh(spec);
  for (const c of calls) env.call(c.tool, c.args as PyValue);
  return { result: grade(spec, runRecordFrom(env.dispatches, env.audits(), answer, 0)), dispatches: env.dispatches };
}

/** A value the matcher accepts (the tests only build calls from equals / contains / literal regexes). */
function sample(m: Matcher): unknown {
  if ('equals' in m) return m.equals;
  if ('contains' in m) return m.contains;
  if ('one_of' in m) return m.one_of[0];
  if ('regex' in m) return m.regex.replace(/^\^/, '').replace(/\$$/, '');
  throw new Error(`no sample for ${JSON.stringify(m)}`);
}

/**
 * A call that breaks the rule: its tool (tool rules) or the plan's write on that service (audit
 * rules), with the plan's own arguments for it and the rule's targets substituted. List-valued
 * arguments get the target as a one-element list, so the call succeeds where the route wants a list.
 */
export function violatingCall(spec: TaskSpec, rule: ProhibitedRule): { tool: string; args: Record<string, unknown> } {
  if (rule.kind === 'assistant_text' || rule.kind === 'judge')
    throw new Error(`a ${rule.kind} rule is broken by text or the judge's reading, not by one call`);
  const plan = spec.reference_plan ?? [];
  const tool =
    rule.kind === 'tool'
      ? rule.tool
      : [...plan]
          .reverse()
          .find((s) =>
            spec.tool_endpoints.some(
              (e) =>
                e.tool_name === s.tool &&
                s.tool.startsWith(`${rule.service}_`) &&
                /update|create|send|save|share|publish|export|submit|notify/.test(s.tool),
            ),
          )!.tool;
  const args: Record<string, unknown> = structuredClone([...plan].reverse().find((s) => s.tool === tool)?.args ?? {});
  for (const [k, m] of Object.entries((rule.kind === 'tool' ? rule.args : rule.fields) ?? {})) {
    const v = sample(m);
    args[k] = Array.isArray(args[k]) ? [v] : v;
  }
  return { tool, args };
}

const CJK = /[\u4e00-\u9fff]/g;
/**
 * The share of CJK characters among the letters and CJK characters of a text, ids, addresses,
 * numbers and machine names (tokens with a digit, an @ or a hyphen/underscore) left out.
 */
export function cjkShare(raw: string): number {
  const text = raw.replace(/[\w.@:+-]*[\d@_-][\w.@:+-]*/g, ' ');
  const cjk = text.match(CJK)?.length ?? 0;
  const latin = text.match(/[A-Za-z]/g)?.length ?? 0;
  return cjk / Math.max(1, cjk + latin);
}
