import type { Verdict } from '../../../shared/contract/validation.contract';
import { verdict, type Message, type ValidationInput } from './types';

export const WEIGHT_TOLERANCE = 1e-6;

/**
 * Validator 3: completion = Σ weight × check, so every weight is positive (a zero-weight check is
 * graded but can never matter) and they sum to 1 ± 1e-6; otherwise a perfect run cannot score
 * completion 1, or scores above it.
 */
export function weights({ spec }: ValidationInput): Verdict {
  const out: Message[] = [];
  if (!spec.checks.length)
    return verdict('weights', [
      { field: 'checks', message: 'the task has no checks: there is nothing to grade completion on' },
    ]);
  spec.checks.forEach((c, i) => {
    if (!Number.isFinite(c.weight) || c.weight <= 0)
      out.push({
        field: `checks.${i}.weight`,
        message: `weight of check "${c.id}" is ${c.weight}; every weight must be positive`,
      });
  });
  const sum = spec.checks.reduce((s, c) => s + c.weight, 0);
  if (!(Math.abs(sum - 1) <= WEIGHT_TOLERANCE)) {
    const fields = spec.checks.map((_, i) => `checks.${i}.weight`).join(' + ');
    out.push({
      field: 'checks',
      message:
        `the weights (${fields}) sum to ${Number(sum.toPrecision(12))}; they must sum to 1 (± ` +
        `${WEIGHT_TOLERANCE})`,
    });
  }
  return verdict('weights', out);
}
