/**
 * Group statistics shared by the advantage estimators (reference/formats.md §4). How σ is estimated and guarded and
 * what a one-member group gets is the trainer's convention (conventions.ts): the paper's preview divides by n and
 * floors σ at 0.05; verl and TRL divide by n − 1 (torch.std, Bessel) and add a small ε instead.
 */

/** The paper's floor on σ before dividing (formats.md §4.1). */
export const STD_FLOOR = 0.05;

/** How a set of values is turned into advantages: the parameters the conventions differ in. */
export type Normaliser = {
  /** σ's divisor: n (population) or n − 1 (sample, torch.std's default). */
  std: 'population' | 'sample';
  /** The denominator: max(σ, value) (a floor) or σ + value (an ε). */
  guard: 'floor' | 'epsilon';
  guardValue: number;
  /**
   * A set of one value. zero: advantage 0, like any zero-variance set (the paper's rule; TRL, whose n − 1 σ is NaN
   * there and whose NaN advantages become 0). unit: μ = 0 and σ = 1, so the advantage is the raw value / (1 + ε)
   * (verl's compute_grpo_outcome_advantage and verl-agent's episode level).
   */
  singleton: 'zero' | 'unit';
};

/** The paper's preview: population σ floored at 0.05, a singleton is a zero-variance group. */
export const paperNormaliser = (floor = STD_FLOOR): Normaliser => ({
  std: 'population',
  guard: 'floor',
  guardValue: floor,
  singleton: 'zero',
});

export function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

const sumSq = (xs: readonly number[], mu: number) => {
  let s = 0;
  for (const x of xs) s += (x - mu) * (x - mu);
  return s;
};

/** Population standard deviation. */
export const popStd = (xs: readonly number[], mu = mean(xs)): number => Math.sqrt(sumSq(xs, mu) / xs.length);

/** σ by the normaliser's estimator; the sample σ of one value is undefined (torch gives NaN): null. */
export function stdOf(xs: readonly number[], n: Normaliser, mu = mean(xs)): number | null {
  if (n.std === 'population') return popStd(xs, mu);
  return xs.length < 2 ? null : Math.sqrt(sumSq(xs, mu) / (xs.length - 1));
}

/**
 * Exactly equal values: "no signal". Tested on the values, not on σ = 0, because σ of equal
 * floats can come out as 1e-17 and would then be floored into a spurious ±0 advantage.
 */
export const allEqual = (xs: readonly number[]): boolean => xs.every((x) => x === xs[0]);

/** The denominator σ is guarded into. */
const guarded = (sigma: number, n: Normaliser) =>
  n.guard === 'floor' ? Math.max(sigma, n.guardValue) : sigma + n.guardValue;

/**
 * (x − μ) / guard(σ) — or x − μ without `scale` (Dr.GRPO, GiGPO's mean_norm) — with the normaliser's singleton rule,
 * and 0 for every member of a zero-variance set. `mu` and `sigma` are the statistics actually used.
 */
export function normalise(
  xs: readonly number[],
  n: Normaliser,
  scale = true,
): { values: number[]; mu: number; sigma: number | null } {
  if (xs.length === 1 && n.singleton === 'unit') {
    const x = xs[0]!;
    return { values: [scale ? x / guarded(1, n) : x], mu: 0, sigma: 1 };
  }
  const mu = mean(xs);
  if (allEqual(xs)) return { values: xs.map(() => 0), mu, sigma: n.std === 'sample' && xs.length < 2 ? null : 0 };
  const sigma = stdOf(xs, n, mu)!;
  return { values: xs.map((x) => (scale ? (x - mu) / guarded(sigma, n) : x - mu)), mu, sigma };
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
