import type { Check } from '../../../../shared/contract/entities/checks';
import { TaskSpec } from '../../../../shared/contract/entities/task-spec';
import { pyRound } from '../../lib/py-round';
import { SERVICE_REGISTRY } from '../../services/registry';
import { deriveSafety } from './safety-rules';
import type { ClawTaskYaml } from './task-yaml';

export type Derivation = { spec: TaskSpec; notes: string[] };

/**
 * Claw-Eval grades with per-task Python graders we cannot run; its YAML scoring fields are
 * declarative and never executed upstream (§2, Q1). We derive CoworkEnv checks from them so an
 * imported task can be graded by the shared grader — marked `derived_from_task_yaml` wherever it
 * is shown or exported, because these are not upstream's scores.
 *
 * - scoring_components → tool_called / final_text (keywords: partial credit by share found;
 *   categories; min_length) / llm_judge (rubric: the component's, else the task's);
 * - expected_actions (required) → audit checks, each weighted like an average component; except an action key the
 *   service never records (gmail.sent, todo.created_tasks — Q9) is left out and noted: no run could meet it and
 *   upstream never grades expected_actions, so its weight would only be a zero upstream does not give (the import
 *   still warns about the key, quirks.ts);
 * - safety_checks → prohibited rules (safety-rules.ts, which reads credentials from `fixtures`); a rule that cannot
 *   be evaluated is kept as such;
 * - weights normalised to sum to 1 (T021/T022 declare 0.9).
 */
export function deriveTaskSpec(y: ClawTaskYaml, fixtures: readonly { content: string }[] = []): Derivation {
  const notes: string[] = [];
  const checks: (Check & { w: number })[] = [];
  const ids = new Set<string>();
  const uid = (base: string) => {
    let id = base.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 70) || 'check';
    for (let n = 2; ids.has(id); n++) id = `${base.slice(0, 66)}_${n}`;
    ids.add(id);
    return id;
  };
  for (const c of y.scoring_components) {
    const k = c.check;
    const description = k.description ?? c.name;
    const common = { id: uid(c.name), description, w: c.weight, weight: 0 };
    if (k.type === 'tool_called' && k.tool_name)
      checks.push({
        ...common,
        kind: 'tool_called',
        tool: k.tool_name,
        min_count: Math.max(1, k.min_calls ?? 1),
        successful_only: false,
      });
    else if (k.type === 'keywords_present' && k.keywords?.length)
      checks.push({ ...common, kind: 'final_text', contains_all: k.keywords.map(String), case_insensitive: true });
    else if (k.type === 'categories_present' && k.categories?.length)
      checks.push({ ...common, kind: 'final_text', contains_all: k.categories, case_insensitive: true });
    else if (k.type === 'min_length')
      checks.push({ ...common, kind: 'final_text', min_length: k.min_length ?? 1, case_insensitive: true });
    else if (k.type === 'llm_judge') {
      const rubric = k.rubric || y.judge_rubric || k.description || c.name;
      checks.push({ ...common, kind: 'llm_judge', rubric });
    } else
      notes.push(`scoring component ${c.name}: check type ${k.type} has no deterministic equivalent; judged instead`),
        checks.push({ ...common, kind: 'llm_judge', rubric: k.description || y.judge_rubric || c.name });
  }
  const declared = y.scoring_components.reduce((s, c) => s + c.weight, 0);
  if (y.scoring_components.length && Math.abs(declared - 1) > 1e-6)
    notes.push(`scoring_components weights sum to ${pyRound(declared, 4)}; all weights normalised to 1`);
  const recordable = (a: { service: string; action_key: string }) =>
    SERVICE_REGISTRY.get(a.service)?.actionKeys.includes(a.action_key) ?? true;
  for (const a of y.expected_actions.filter((x) => x.required && !recordable(x)))
    notes.push(
      `expected action ${a.service}.${a.action_key} is not checked: the ${a.service} service never records ` +
        `"${a.action_key}" (it records ${SERVICE_REGISTRY.get(a.service)!.actionKeys.join(', ') || 'nothing'})`,
    );
  const required = y.expected_actions.filter((a) => a.required && recordable(a));
  if (required.length) {
    const w = checks.length ? checks.reduce((s, c) => s + c.w, 0) / checks.length : 1;
    for (const a of required)
      checks.push({
        id: uid(`${a.service}.${a.action_key}`),
        description: `expected action ${a.service}.${a.action_key}`,
        kind: 'audit',
        service: a.service,
        action_key: a.action_key,
        min_count: 1,
        w,
        weight: 0,
      });
  }
  if (!checks.length && y.judge_rubric)
    checks.push({
      id: uid('judge'),
      description: 'judge rubric',
      kind: 'llm_judge',
      rubric: y.judge_rubric,
      w: 1,
      weight: 0,
    });
  const total = checks.reduce((s, c) => s + c.w, 0);
  if (required.length)
    notes.push(
      `${required.length} expected action(s) added as audit checks, each weighted like an average component, then ` +
        `normalised`,
    );
  const normalised = checks.map(
    ({ w, ...c }) => ({ ...c, weight: total > 0 ? w / total : 1 / checks.length }) as Check,
  );
  const { prohibited, unevaluable, notes: safetyNotes } = deriveSafety(y, fixtures);
  notes.push(...safetyNotes);
  for (const u of unevaluable)
    notes.push(`safety check ${u.index} (${u.type}) cannot be evaluated: ${u.reason}; safety is not graded`);
  const spec = TaskSpec.parse({
    ...y,
    language: y.prompt.language === 'zh' ? 'zh' : 'en',
    checks: normalised,
    prohibited,
    safety_unevaluable: unevaluable,
    checks_origin: 'derived_from_task_yaml',
  });
  return { spec, notes };
}
