import type { Verdict } from '../../../shared/contract/validation.contract';
import { grade } from '../grading/grade';
import { isIdLike, targets } from './leakage';
import { runs } from './plan-run';
import { trigger } from './prohibited-triggers';
import { verdict, type Message, type ValidationInput } from './types';

/**
 * " (TK-2001 occurs in no fixture record)" for the id-like targets of check i that no record holds: the usual reason a
 * check cannot be met.
 */
function absentTargets({ spec, fixtures }: ValidationInput, i: number): string {
  const haystack = [
    ...spec.services.map((s) => JSON.stringify(s.records ?? [])),
    ...fixtures.map((f) => f.content),
  ].join('\n');
  const absent = [
    ...new Set(
      targets(spec)
        .filter((t) => t.field.startsWith(`checks.${i}.`) && isIdLike(t.value) && !haystack.includes(t.value))
        .map((t) => t.value),
    ),
  ];
  return absent.length ? ` (${absent.join(', ')} ${absent.length > 1 ? 'occur' : 'occurs'} in no fixture record)` : '';
}

/**
 * Validator 6, in a fresh environment: an empty run scores completion 0 (a check it meets cannot
 * tell work from no work); the reference plan meets every deterministic check (completion 1.0 over
 * them) and violates no prohibited rule (safety 1.0); and the plan plus one call aimed at each
 * prohibited rule zeroes safety (a rule nothing can trigger guards nothing). llm_judge checks are
 * not graded without a judge: excluded and said so. Without a reference plan (imports) the
 * plan-dependent parts are not applicable — never passed — and the verdict says which ran.
 */
export function gradingConsistency(input: ValidationInput): Verdict {
  const { spec } = input;
  const r = runs(input);
  if (!r.ok)
    return verdict('grading_consistency', [
      { field: 'services', message: `cannot build a fresh environment of the task's services: ${r.error}` },
    ]);
  const problems: Message[] = [];
  const notes: Message[] = [];
  const plan = r.plan;
  spec.checks.forEach((c, i) => {
    if (c.kind === 'llm_judge')
      notes.push({
        field: `checks.${i}`,
        message:
          `llm_judge check "${c.id}" needs a judge endpoint: not graded in these runs, excluded (never ` +
          `counted as met)`,
      });
    else if (c.kind === 'final_text' && plan && spec.reference_final_text === undefined)
      notes.push({
        field: `checks.${i}`,
        message:
          `final_text check "${c.id}": the task has no reference_final_text to go with its plan, so the plan ` +
          `run has no answer to read; excluded from the plan's completion`,
      });
  });
  spec.prohibited.forEach((rule, k) => {
    if (rule.kind === 'judge')
      notes.push({
        field: `prohibited.${k}`,
        message:
          'a judge-evaluated safety rule: graded by the LLM judge; without one, safety stays "judge pending" (never ' +
          'a pass)',
      });
  });
  r.empty.checks.forEach((res, i) => {
    if (res.score !== null && res.score > 0)
      problems.push({
        field: `checks.${i}`,
        message:
          `an empty run (no call, no answer) already scores ${res.score} on check "${res.id}" ` +
          `(${res.message}): completion must be 0 for doing nothing`,
      });
  });
  if (plan) {
    plan.grade.checks.forEach((res, i) => {
      const c = spec.checks[i]!;
      if (res.score === null || (c.kind === 'final_text' && spec.reference_final_text === undefined)) return;
      if (res.score < 1)
        problems.push({
          field: `checks.${i}`,
          message:
            `the reference plan does not meet check "${res.id}" (score ${res.score}: ` +
            `${res.message})${absentTargets(input, i)}`,
        });
    });
    spec.prohibited.forEach((rule, k) => {
      const v = grade({ checks: [], prohibited: [rule] }, plan.record).safetyViolations;
      const at = v.map((x) =>
        x.evidence.kind === 'dispatch'
          ? `reference_plan.${x.evidence.index}`
          : x.evidence.kind === 'audit'
            ? `${x.evidence.service}.${x.evidence.action_key}[${x.evidence.index}]`
            : '?',
      );
      if (v.length)
        problems.push({
          field: `prohibited.${k}`,
          message: `the reference plan itself violates this prohibited rule (${at.join(', ')}): safety would be 0`,
        });
    });
  }
  spec.prohibited.forEach((rule, k) => {
    const why = trigger(r.env, spec, rule);
    if (why) problems.push({ field: `prohibited.${k}`, message: `this prohibited rule cannot be triggered: ${why}` });
  });
  // An imported safety rule the app cannot evaluate would let every run pass safety unseen: the task is invalid.
  for (const u of spec.safety_unevaluable)
    problems.push({
      field: `safety_checks.${u.index}`,
      message: `task ${spec.task_id}: safety check ${u.index} (${u.type}) cannot be evaluated: ${u.reason}`,
    });
  if (problems.length || plan) return verdict('grading_consistency', problems, notes);
  return {
    validator: 'grading_consistency',
    status: 'not_applicable',
    messages: [
      {
        field: 'reference_plan',
        message:
          'no reference plan: "the plan scores completion 1.0 and safety 1.0" cannot be checked (not passed); ' +
          'checked: an empty run scores completion 0 and every prohibited rule can be triggered',
      },
      ...notes,
    ],
  };
}
