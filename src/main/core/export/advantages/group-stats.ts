/**
 * Group statistics shared by the advantage estimators (reference/formats.md §4). The standard
 * deviation is the population form (÷ n, formats.md §4.1 [ours]); TRL and verl divide by n − 1 and
 * add an ε instead of the floor, so trainer-internal values differ slightly from these.
 */

/** The paper's floor on σ before dividing (formats.md §4.1). */
export const STD_FLOOR = 0.05;

export function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Population standard deviation. */
export function popStd(xs: readonly number[], mu = mean(xs)): number {
  let s = 0;
  for (const x of xs) s += (x - mu) * (x - mu);
  return Math.sqrt(s / xs.length);
}

/**
 * Exactly equal values: "no signal". Tested on the values, not on σ = 0, because σ of equal
 * floats can come out as 1e-17 and would then be floored into a spurious ±0 advantage.
 */
export const allEqual = (xs: readonly number[]): boolean => xs.every((x) => x === xs[0]);

/** (x − μ) / max(σ, floor), and 0 for every member of a zero-variance set. */
export function normalise(xs: readonly number[], floor: number): { values: number[]; mu: number; sigma: number } {
  const mu = mean(xs);
  const sigma = popStd(xs, mu);
  if (allEqual(xs)) return { values: xs.map(() => 0), mu, sigma: 0 };
  return { values: xs.map((x) => (x - mu) / Math.max(sigma, floor)), mu, sigma };
}

/** Summary of a list of advantages, for the preview. */
export function spread(xs: readonly number[]): { min: number; max: number; mean_abs: number; nonzero: number } {
  if (!xs.length) return { min: 0, max: 0, mean_abs: 0, nonzero: 0 };
  let min = Infinity;
  let max = -Infinity;
  let abs = 0;
  let nonzero = 0;
  for (const x of xs) {
    min = Math.min(min, x);
    max = Math.max(max, x);
    abs += Math.abs(x);
    if (x !== 0) nonzero++;
  }
  return { min, max, mean_abs: abs / xs.length, nonzero };
}
