import { allEqual, mean, normalise, popStd, STD_FLOOR } from './group-stats';

/**
 * One group's scalar advantages, per rollout (same order as the input). `null` in the input is an
 * invalid rollout: removed before any statistic, and it gets no advantage (formats.md §4).
 */
export type ScalarGroup = {
  advantages: (number | null)[];
  /** Mean and σ over the valid rollouts; null when the group is invalid. */
  mean: number | null;
  std: number | null;
  /** At least 2 valid rollouts (formats.md §4 [ours]). */
  valid: boolean;
  /** Valid, and every valid reward equal: all advantages are 0 ("no signal"). */
  noSignal: boolean;
};

const validOf = (rewards: readonly (number | null)[]) =>
  rewards.filter((r): r is number => r !== null && Number.isFinite(r));

function invalidGroup(n: number): ScalarGroup {
  return { advantages: new Array(n).fill(null), mean: null, std: null, valid: false, noSignal: false };
}

/** GRPO (arXiv 2402.03300, formats.md §4.1): A_i = (r_i − μ_g) / max(σ_g, 0.05). */
export function grpoGroup(rewards: readonly (number | null)[], floor = STD_FLOOR): ScalarGroup {
  const valid = validOf(rewards);
  if (valid.length < 2) return invalidGroup(rewards.length);
  const { mu, sigma } = normalise(valid, floor);
  const flat = allEqual(valid);
  return {
    advantages: rewards.map((r) =>
      r === null || !Number.isFinite(r) ? null : flat ? 0 : (r - mu) / Math.max(sigma, floor),
    ),
    mean: mu,
    std: sigma,
    valid: true,
    noSignal: flat,
  };
}

/** Dr.GRPO (arXiv 2503.20783, formats.md §4.2): A_i = r_i − μ_g, no division by σ. */
export function drGrpoGroup(rewards: readonly (number | null)[]): ScalarGroup {
  const valid = validOf(rewards);
  if (valid.length < 2) return invalidGroup(rewards.length);
  const mu = mean(valid);
  const flat = allEqual(valid);
  return {
    advantages: rewards.map((r) => (r === null || !Number.isFinite(r) ? null : flat ? 0 : r - mu)),
    mean: mu,
    std: popStd(valid, mu),
    valid: true,
    noSignal: flat,
  };
}
