import { type Normaliser, normalise, paperNormaliser } from './group-stats';

/**
 * One group's scalar advantages, per rollout (same order as the input). `null` in the input is an
 * invalid rollout: removed before any statistic, and it gets no advantage (formats.md §4).
 */
export type ScalarGroup = {
  advantages: (number | null)[];
  /** Mean and σ over the valid rollouts, as the convention computes them; null when the group is invalid (or σ is
   * undefined: the sample σ of one rollout). */
  mean: number | null;
  std: number | null;
  /** At least one valid rollout: a singleton follows its convention's rule (group-stats.ts). */
  valid: boolean;
  /** Valid, and every advantage exactly 0 (equal rewards, or a singleton under the zero-variance rule). */
  noSignal: boolean;
};

const isReward = (r: number | null): r is number => r !== null && Number.isFinite(r);

function invalidGroup(n: number): ScalarGroup {
  return { advantages: new Array(n).fill(null), mean: null, std: null, valid: false, noSignal: false };
}

/** Group-normalised scalar advantages: GRPO with `scale`, Dr.GRPO without. */
function scalarGroup(rewards: readonly (number | null)[], n: Normaliser, scale: boolean): ScalarGroup {
  const valid = rewards.filter(isReward);
  if (!valid.length) return invalidGroup(rewards.length);
  const { values, mu, sigma } = normalise(valid, n, scale);
  let k = 0;
  return {
    advantages: rewards.map((r) => (isReward(r) ? values[k++]! : null)),
    mean: mu,
    std: sigma,
    valid: true,
    noSignal: values.every((v) => v === 0),
  };
}

/** GRPO (arXiv 2402.03300, formats.md §4.1): A_i = (r_i − μ_g) / guard(σ_g) (paper: max(σ_g, 0.05)). */
export const grpoGroup = (rewards: readonly (number | null)[], n: Normaliser = paperNormaliser()) =>
  scalarGroup(rewards, n, true);

/** Dr.GRPO (arXiv 2503.20783, formats.md §4.2): A_i = r_i − μ_g, no division by σ. */
export const drGrpoGroup = (rewards: readonly (number | null)[], n: Normaliser = paperNormaliser()) =>
  scalarGroup(rewards, n, false);
