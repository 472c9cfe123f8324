import type { Verdict } from '../../../shared/contract/validation.contract';
import { isObject } from '../py/pyjson';
import { runs } from './plan-run';
import { notApplicable, verdict, type Message, type ValidationInput } from './types';

/**
 * Validator 7: the reference plan only uses offered tools and every step succeeds in a fresh
 * environment — status < 400 and no `{"error": …}` body (the mocks answer "not found" with HTTP
 * 200, so the status alone would call a plan that reads a missing record solvable).
 */
export function solvability(input: ValidationInput): Verdict {
  const plan = input.spec.reference_plan;
  if (!plan)
    return notApplicable(
      'solvability',
      'reference_plan',
      'no reference plan: solvability cannot be shown (imported tasks carry none); not passed',
    );
  const r = runs(input);
  if (!r.ok)
    return verdict('solvability', [
      { field: 'services', message: `cannot build a fresh environment of the task's services: ${r.error}` },
    ]);
  const offered = new Set(input.spec.tools.map((t) => t.name));
  const out: Message[] = [];
  if (!plan.length)
    out.push({ field: 'reference_plan', message: 'the reference plan is empty: it cannot solve anything' });
  r.plan!.dispatches.forEach((d, k) => {
    if (!offered.has(d.tool))
      return void out.push({
        field: `reference_plan.${k}.tool`,
        message: `step ${k} calls ${d.tool}, which is not offered (tools)`,
      });
    if (d.status >= 400)
      return void out.push({
        field: `reference_plan.${k}`,
        message: `step ${k} (${d.tool}) fails with status ${d.status}: ${d.text.slice(0, 300)}`,
      });
    if (isObject(d.body) && 'error' in d.body)
      out.push({
        field: `reference_plan.${k}.args`,
        message: `step ${k} (${d.tool}) answers an error: ${d.text.slice(0, 300)}`,
      });
  });
  return verdict('solvability', out);
}
