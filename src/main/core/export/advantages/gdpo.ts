import { allEqual, type Normaliser, normalise, paperNormaliser } from './group-stats';

/** One rollout's reward dimensions (Claw-Eval's completion, safety, robustness), or null when invalid. */
export type DimRewards = Readonly<Record<string, number>>;

export type GdpoGroup = {
  /** Per rollout: Σ_k w_k·Â_{i,k} before the batch step; null for invalid rollouts. */
  combined: (number | null)[];
  advantages: (number | null)[];
  valid: boolean;
  /** Every dimension has zero variance: S = 0 and A = 0 for the whole group. */
  noSignal: boolean;
  /** Per dimension: zero variance in this group (that dimension contributes nothing). */
  flatDims: Record<string, boolean>;
};

export type GdpoBatch = { groups: GdpoGroup[]; batchMean: number | null; batchStd: number | null };

/**
 * GDPO (arXiv 2601.05242, formats.md §4.3): normalise each reward dimension within its group,
 * combine with the weights, then normalise the combined values over the valid groups of the batch
 * (the whole export is one batch here). Every σ follows the normaliser: the paper's 0.05 floor [ours], or TRL's
 * `normalize_then_sum` (sample σ + 1e-4 at both steps; a one-rollout dimension's NaN is summed as 0). Rollouts of a
 * group with no signal in any dimension stay exactly 0 after the batch step (TRL: 0 up to rounding, as μ_B = 0).
 */
export function gdpoBatch(
  groups: readonly (readonly (DimRewards | null)[])[],
  weights: Readonly<Record<string, number>>,
  n: Normaliser = paperNormaliser(),
): GdpoBatch {
  const dims = Object.keys(weights);
  const partial = groups.map((g): GdpoGroup => {
    const idx = g.flatMap((r, i) => (r && dims.every((d) => Number.isFinite(r[d])) ? [i] : []));
    const combined: (number | null)[] = new Array(g.length).fill(null);
    const flatDims: Record<string, boolean> = {};
    if (!idx.length)
      return { combined, advantages: new Array(g.length).fill(null), valid: false, noSignal: false, flatDims };
    for (const i of idx) combined[i] = 0;
    for (const d of dims) {
      const xs = idx.map((i) => g[i]![d]!);
      flatDims[d] = allEqual(xs);
      const { values } = normalise(xs, n);
      idx.forEach((i, k) => {
        combined[i] = combined[i]! + weights[d]! * values[k]!;
      });
    }
    const noSignal = dims.every((d) => flatDims[d]);
    return { combined, advantages: combined.slice(), valid: true, noSignal, flatDims };
  });
  const pool = partial.filter((g) => g.valid).flatMap((g) => g.combined.filter((x): x is number => x !== null));
  if (!pool.length) return { groups: partial, batchMean: null, batchStd: null };
  const batch = normalise(pool, n);
  let k = 0;
  for (const g of partial) {
    if (!g.valid) continue;
    g.advantages = g.combined.map((s) => {
      if (s === null) return null;
      const a = batch.values[k++]!;
      return g.noSignal ? 0 : a;
    });
  }
  return { groups: partial, batchMean: batch.mu, batchStd: batch.sigma };
}
