import type { AnchorKey } from './anchor-states';

export type AdvantageMethod = 'grpo' | 'drgrpo' | 'gdpo' | 'gigpo';
export const ADVANTAGE_METHODS: readonly AdvantageMethod[] = ['grpo', 'drgrpo', 'gdpo', 'gigpo'];

/** The reward dimensions GDPO normalises separately (Claw-Eval's scored dimensions). */
export const REWARD_DIMS = ['completion', 'safety', 'robustness'] as const;
export type RewardDim = (typeof REWARD_DIMS)[number];

/**
 * Everything that shapes the advantages; written into the package manifest as is. `[paper]`
 * values are the CoworkEnv paper's, `[ours]` are conventions (formats.md §4).
 */
export type AdvantageSettings = {
  method: AdvantageMethod;
  /** σ floor [paper]. */
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
  stdFloor: 0.05,
  weights: { completion: 1, safety: 1, robustness: 1 },
  gamma: 0.95,
  omega: 1,
  mode: 'mean_std_norm',
  anchorKey: 'state+observation',
  rewardSource: 'recorded',
};

/** The manifest's description of the settings (what a reader needs to reproduce the numbers). */
export function describeSettings(s: AdvantageSettings): Record<string, unknown> {
  const base = {
    method: s.method,
    group: 'the valid rollouts of one task',
    std: 'population (divide by n); trainers (torch.std) divide by n - 1',
    std_floor: s.stdFloor,
    zero_variance: 'advantage 0 ("no signal"), group stays valid',
    min_valid_rollouts: 2,
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
