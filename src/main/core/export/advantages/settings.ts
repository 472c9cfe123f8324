import type { AnchorKey } from './anchor-states';
import { type AdvantageConvention, defaultConvention, describeConvention } from './conventions';

import type { AdvantageMethod } from './methods';

export { ADVANTAGE_METHODS, type AdvantageMethod } from './methods';

/** The reward dimensions GDPO normalises separately (Claw-Eval's scored dimensions). */
export const REWARD_DIMS = ['completion', 'safety', 'robustness'] as const;
export type RewardDim = (typeof REWARD_DIMS)[number];

/**
 * Everything that shapes the advantages; written into the package manifest as is. `[paper]`
 * values are the CoworkEnv paper's, `[ours]` are conventions (formats.md §4).
 */
export type AdvantageSettings = {
  method: AdvantageMethod;
  /** Whose arithmetic the advantages follow (conventions.ts); default verl, the package's trainer. */
  convention: AdvantageConvention;
  /** Rollouts per task in a training group, G [paper: 8]: the trainer's rollout.n / num_generations. */
  groupSize: number;
  /** Dr.GRPO's fixed token denominator [paper: 1,536] (formats.md §4.2). */
  drGrpoTokens: number;
  /** σ floor [paper]; the paper's convention only. */
  stdFloor: number;
  /** GDPO dimension weights (equal weights reproduce formats.md §4.3's example) [ours]. */
  weights: Record<RewardDim, number>;
  /** GiGPO [paper: ω = 1.0; ours: γ, mode, anchor key]. */
  gamma: number;
  omega: number;
  mode: 'mean_std_norm' | 'mean_norm';
  anchorKey: AnchorKey;
  /**
   * recorded: each rollout's own reward and scores (its last grading); grader: re-graded here by
   * the shared grader on the package's checks (what the env server's grade answers).
   */
  rewardSource: 'recorded' | 'grader';
};

export const DEFAULT_ADVANTAGE_SETTINGS: AdvantageSettings = {
  method: 'grpo',
  convention: 'verl',
  groupSize: 8,
  drGrpoTokens: 1536,
  stdFloor: 0.05,
  weights: { completion: 1, safety: 1, robustness: 1 },
  gamma: 0.95,
  omega: 1,
  mode: 'mean_std_norm',
  anchorKey: 'state+observation',
  rewardSource: 'recorded',
};

/**
 * Settings from a method or a partial setting: the defaults, and the method's default convention (verl; TRL for GDPO,
 * which verl lacks) unless one is named.
 */
export function resolveSettings(a: AdvantageMethod | Partial<AdvantageSettings> | undefined): AdvantageSettings {
  const given = typeof a === 'string' ? { method: a } : (a ?? {});
  const method = given.method ?? DEFAULT_ADVANTAGE_SETTINGS.method;
  return { ...DEFAULT_ADVANTAGE_SETTINGS, ...given, method, convention: given.convention ?? defaultConvention(method) };
}

/** The manifest's description of the settings (what a reader needs to reproduce the numbers). */
export function describeSettings(s: AdvantageSettings): Record<string, unknown> {
  const base = {
    method: s.method,
    convention: describeConvention(s.convention, s.method, s.stdFloor),
    group: 'the valid rollouts of one task by one run (or collection) and one agent',
    ...(s.convention === 'paper' ? { std_floor: s.stdFloor } : {}),
    zero_variance: 'advantage 0 ("no signal"), group stays valid',
    min_valid_rollouts: 1,
    group_size: s.groupSize,
    ...(s.method === 'drgrpo' ? { token_denominator: s.drGrpoTokens } : {}),
    reward_source: s.rewardSource,
  };
  if (s.method === 'gdpo') return { ...base, weights: s.weights, batch: 'every valid group of this export' };
  if (s.method === 'gigpo')
    return {
      ...base,
      gamma: s.gamma,
      omega: s.omega,
      mode: s.mode,
      step: 'one assistant message (model call)',
      step_reward: 'sparse: the episode reward at the last step',
      anchor_key: s.anchorKey,
      anchor_key_definition:
        "sha256(services' state and audit action lists before the turn, replayed from the rollout's calls in a " +
        "fresh environment ‖ the tool results and user messages since the previous turn; '' for the first turn)",
    };
  return base;
}
