/**
 * The one conversion of a zod issue's path for our error messages and error issues (the dispatcher's INVALID_INPUT,
 * the plan's cell errors, the validators' verdicts): numbers stay numbers, symbols (never in our schemas) become text.
 */
export const issuePath = (path: readonly PropertyKey[]): (string | number)[] =>
  path.map((p) => (typeof p === 'symbol' ? String(p) : p));

/** A path as a field name, `checks.2.weight`; `whole` names the value itself when the path is empty. */
export const fieldName = (path: readonly PropertyKey[], whole = '(input)'): string =>
  issuePath(path).join('.') || whole;
