import { TaskSpec } from '../../../shared/contract/entities/task-spec';
import type { Check, Matcher, ProhibitedRule } from '../../../shared/contract/entities/checks';
import type { Verdict } from '../../../shared/contract/validation.contract';
import { fieldOf, verdict, type Message } from './types';

const regexProblem = (source: string, caseInsensitive: boolean): string | undefined => {
  try {
    new RegExp(source, caseInsensitive ? 'i' : '');
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
};

/** Regexes the grader would compile: a bad one must be a verdict here, not a crash while grading. */
function matcherRegexes(fields: Record<string, Matcher> | undefined, at: string, out: Message[]): void {
  for (const [name, m] of Object.entries(fields ?? {})) {
    if (!('regex' in m)) continue;
    const p = regexProblem(m.regex, m.case_insensitive === true);
    if (p) out.push({ field: `${at}.${name}.regex`, message: `not a valid regular expression: ${p}` });
  }
}

function semantic(spec: TaskSpec): Message[] {
  const out: Message[] = [];
  const seen = new Map<string, number>();
  spec.checks.forEach((c: Check, i) => {
    const first = seen.get(c.id);
    if (first !== undefined)
      out.push({
        field: `checks.${i}.id`,
        message: `duplicate check id "${c.id}" (also checks.${first}.id); evidence and re-grading address checks by id`,
      });
    else seen.set(c.id, i);
    if (c.kind === 'tool_called') matcherRegexes(c.args, `checks.${i}.args`, out);
    if (c.kind === 'audit') matcherRegexes(c.fields, `checks.${i}.fields`, out);
    if (c.kind === 'final_text' && c.regex !== undefined) {
      const p = regexProblem(c.regex, c.case_insensitive);
      if (p) out.push({ field: `checks.${i}.regex`, message: `not a valid regular expression: ${p}` });
    }
  });
  spec.prohibited.forEach((r: ProhibitedRule, i) =>
    r.kind === 'assistant_text' || r.kind === 'judge'
      ? undefined
      : matcherRegexes(
          r.kind === 'tool' ? r.args : r.fields,
          `prohibited.${i}.${r.kind === 'tool' ? 'args' : 'fields'}`,
          out,
        ),
  );
  return out;
}

/**
 * Validator 1: the candidate parses against TaskSpec (each zod issue becomes a message naming its
 * field), check ids are unique and every regex compiles. Answers the parsed spec when it passes,
 * because every later validator works on it.
 */
export function structure(raw: unknown): { verdict: Verdict; spec?: TaskSpec } {
  const parsed = TaskSpec.safeParse(raw);
  if (!parsed.success) {
    const messages = parsed.error.issues.map((i) => ({ field: fieldOf(i.path), message: i.message }));
    return { verdict: verdict('structure', messages) };
  }
  const problems = semantic(parsed.data);
  return problems.length
    ? { verdict: verdict('structure', problems) }
    : { verdict: verdict('structure', []), spec: parsed.data };
}
