import type { FieldMatchers } from '../../../shared/contract/entities/checks';
import type { Verdict } from '../../../shared/contract/validation.contract';
import type { z } from 'zod';
import { verdict, type ValidationInput } from './types';

/**
 * What counts as an identifier. The request may legitimately carry values a check targets — the
 * customer's name the user mentions, a product, a date, the address the user asks to write to —
 * so flagging every targeted value would fail good tasks. What the agent must *discover* are the
 * opaque keys the services hand out: prefix-and-number ids (TK-1001, msg_001, txn_12, todo_3,
 * EMP-0042, evt-2026-01) and uuids. Those are flagged. E-mail addresses are not: a request names
 * its recipients as often as a service does. Prefixes are letters only, so labels such as Q1-2026
 * or model numbers like X5-200 are not taken for ids.
 */
const ID_LIKE = [
  /^[A-Za-z]+(?:[-_][A-Za-z]+)*[-_]\d+(?:[-_]\d+)*$/,
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
];
export const isIdLike = (v: string): boolean => v.length <= 80 && ID_LIKE.some((re) => re.test(v));

type Target = { value: string; field: string };

function fromMatchers(fields: z.infer<typeof FieldMatchers> | undefined, at: string, out: Target[]): void {
  for (const [name, m] of Object.entries(fields ?? {})) {
    if ('equals' in m && typeof m.equals === 'string') out.push({ value: m.equals, field: `${at}.${name}.equals` });
    if ('one_of' in m)
      m.one_of.forEach((v, i) => typeof v === 'string' && out.push({ value: v, field: `${at}.${name}.one_of.${i}` }));
    if ('contains' in m) out.push({ value: m.contains, field: `${at}.${name}.contains` });
  }
}

function fromArgs(v: unknown, at: string, out: Target[]): void {
  if (typeof v === 'string') out.push({ value: v, field: at });
  else if (Array.isArray(v)) v.forEach((x, i) => fromArgs(x, `${at}.${i}`, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) fromArgs(x, `${at}.${k}`, out);
}

/** Every value the grading data targets or the plan must pass, with the field that holds it. */
export function targets(spec: ValidationInput['spec']): Target[] {
  const out: Target[] = [];
  spec.checks.forEach((c, i) => {
    if (c.kind === 'tool_called') fromMatchers(c.args, `checks.${i}.args`, out);
    else if (c.kind === 'audit') fromMatchers(c.fields, `checks.${i}.fields`, out);
    else if (c.kind === 'final_text') {
      // Ids the answer must report (T018: TK-1001…) are found by the agent, never given.
      (c.contains_all ?? []).forEach((v, j) => out.push({ value: v, field: `checks.${i}.contains_all.${j}` }));
      (c.contains_any ?? []).forEach((v, j) => out.push({ value: v, field: `checks.${i}.contains_any.${j}` }));
    }
  });
  spec.prohibited.forEach((r, k) =>
    // An assistant_text rule's strings are what the agent must not say: never a hint that leaks an answer.
    r.kind === 'assistant_text' || r.kind === 'judge'
      ? undefined
      : fromMatchers(
          r.kind === 'tool' ? r.args : r.fields,
          `prohibited.${k}.${r.kind === 'tool' ? 'args' : 'fields'}`,
          out,
        ),
  );
  (spec.reference_plan ?? []).forEach((s, k) => fromArgs(s.args, `reference_plan.${k}.args`, out));
  return out;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Validator 5: identifiers the agent must discover do not appear in the request. A mention counts
 * case-insensitively and as a whole token (TK-1001 is not found inside TK-10012).
 */
export function leakage({ spec }: ValidationInput): Verdict {
  const bySource = new Map<string, string[]>();
  for (const t of targets(spec)) {
    const v = t.value.trim();
    if (!isIdLike(v)) continue;
    bySource.set(v, [...(bySource.get(v) ?? []), t.field]);
  }
  const text = spec.prompt.text;
  const problems = [...bySource].flatMap(([value, fields]) =>
    new RegExp(`(?<![A-Za-z0-9_])${escapeRegex(value)}(?![A-Za-z0-9_])`, 'i').test(text)
      ? [
          {
            field: 'prompt.text',
            message:
              `the request mentions "${value}", which ${fields.join(', ')} ` +
              `${fields.length > 1 ? 'target' : 'targets'}: an identifier the agent must discover through the tools, ` +
              `not be told`,
          },
        ]
      : [],
  );
  return verdict('leakage', problems);
}
