import type { Normaliser } from './group-stats';
import { paperNormaliser } from './group-stats';
import type { AdvantageMethod } from './methods';

/**
 * Whose arithmetic the advantages follow (issue 18 item 7). The formulas are the same (formats.md §4); the trainers
 * differ in the σ estimator, its guard, the one-rollout group and (GiGPO) what the episode statistics run over, and
 * a preview that disagrees with the trainer that consumes it misleads: with rewards [1,1,0,0,0,0,0,0] the paper's
 * population σ gives +1.732 / −0.577 where verl's torch.std gives +1.620 / −0.540.
 */
export type AdvantageConvention = 'paper' | 'verl' | 'trl';
export const ADVANTAGE_CONVENTIONS: readonly AdvantageConvention[] = ['paper', 'verl', 'trl'];

/** The trainer code each convention was read from (fetched and read at these revisions, 2026). */
export const TRAINER_SOURCES = {
  verl: {
    repo: 'volcengine/verl (now verl-project/verl)',
    // The release the RL package targets (rl/verl-release.ts); the GRPO arithmetic is the same since v0.7.0.
    tag: 'v0.9.0',
    commit: '483b8a009ba3a97563edee3a19887e4862b8094a',
    advantage: 'verl/trainer/ppo/core_algos.py:268-331 compute_grpo_outcome_advantage',
    loss: 'verl/trainer/ppo/core_algos.py:1140-1200 agg_loss',
  },
  verlAgent: {
    repo: 'langfengQ/verl-agent',
    tag: 'no release tag; last upstream commit 2716b30 (2026-02-11)',
    commit: '2716b30b930f4fbddb01798ffcd20e707287680a',
    advantage: 'gigpo/core_gigpo.py:138-385 compute_gigpo_outcome_advantage, episode_norm_reward, step_norm_reward',
  },
  trl: {
    repo: 'huggingface/trl',
    tag: 'v1.9.0',
    commit: '35def3ee000a87f6839e66f4b7749b06274ed1b3',
    advantage: 'trl/trainer/grpo_trainer.py:2681-2730 (advantages), trl/trainer/utils.py:857 nanstd',
    loss: 'trl/trainer/grpo_trainer.py:3124-3138 (loss_type)',
  },
} as const;

/** verl's ε (compute_grpo_outcome_advantage's default; compute_advantage passes none) and TRL's (hard-coded). */
export const VERL_EPSILON = 1e-6;
export const TRL_EPSILON = 1e-4;

/** Which methods each trainer implements: verl has no GDPO, TRL no GiGPO (its home is verl-agent, a verl fork). */
const SUPPORTED: Record<AdvantageConvention, readonly AdvantageMethod[]> = {
  paper: ['grpo', 'drgrpo', 'gdpo', 'gigpo'],
  verl: ['grpo', 'drgrpo', 'gigpo'],
  trl: ['grpo', 'drgrpo', 'gdpo'],
};

export const supports = (c: AdvantageConvention, m: AdvantageMethod) => SUPPORTED[c].includes(m);

/**
 * The default: verl, the trainer this app's RL package is made for — except GDPO, which verl does not implement and
 * TRL does (`multi_objective_aggregation="normalize_then_sum"`).
 */
export const defaultConvention = (m: AdvantageMethod): AdvantageConvention => (m === 'gdpo' ? 'trl' : 'verl');

/** Why a method cannot be computed in a convention (null: it can). */
export function unsupportedReason(c: AdvantageConvention, m: AdvantageMethod): string | null {
  if (supports(c, m)) return null;
  const other = ADVANTAGE_CONVENTIONS.filter((x) => supports(x, m)).join(' or ');
  return c === 'verl'
    ? `verl ${TRAINER_SOURCES.verl.tag} has no ${m} advantage estimator; choose the convention ${other}`
    : `TRL ${TRAINER_SOURCES.trl.tag} has no ${m} (GiGPO lives in verl-agent); choose the convention ${other}`;
}

/** The convention's normaliser. `floor` is the paper's σ floor (settings), used by the paper's convention only. */
export function normaliserOf(c: AdvantageConvention, floor: number): Normaliser {
  if (c === 'verl') return { std: 'sample', guard: 'epsilon', guardValue: VERL_EPSILON, singleton: 'unit' };
  if (c === 'trl') return { std: 'sample', guard: 'epsilon', guardValue: TRL_EPSILON, singleton: 'zero' };
  return paperNormaliser(floor);
}

/** GiGPO's episode statistics: over rollouts (the paper) or over steps (verl-agent's cross-steps default). */
export const episodeStatsOf = (c: AdvantageConvention) => (c === 'verl' ? 'steps' : 'rollouts');

/** The manifest's account of the convention: every parameter, and where each trainer's was read. */
export function describeConvention(c: AdvantageConvention, m: AdvantageMethod, floor: number) {
  const n = normaliserOf(c, floor);
  const std =
    n.std === 'population'
      ? 'population (divide by n) [ours: the paper names no estimator]'
      : 'sample (n − 1, torch.std)';
  const denominator = n.guard === 'floor' ? `max(σ, ${n.guardValue}) [paper]` : `σ + ${n.guardValue}`;
  const singleton =
    c === 'verl'
      ? `μ = 0, σ = 1: A = r / (1 + ${n.guardValue}) (GRPO), A = r (Dr.GRPO); the group stays valid`
      : c === 'trl'
        ? "advantage 0 (TRL's n − 1 σ is NaN and NaN advantages become 0); the group stays valid"
        : 'the zero-variance rule: advantage 0, the group stays valid ("no signal") [paper]';
  const source =
    c === 'paper'
      ? { reference: 'CoworkEnv paper RL appendix; reference/formats.md §4' }
      : m === 'gigpo'
        ? TRAINER_SOURCES.verlAgent
        : c === 'verl'
          ? TRAINER_SOURCES.verl
          : TRAINER_SOURCES.trl;
  return {
    name: c,
    source,
    std,
    denominator,
    singleton,
    all_equal: 'every advantage exactly 0 (the trainers: 0 up to float32 rounding)',
    invalid_rollouts: 'left out of every statistic, no advantage (TRL: a NaN reward, excluded and advantage 0)',
    arithmetic: 'float64 here; the trainers compute in float32 (values agree to about 1e-6 relative)',
    ...(m === 'gigpo'
      ? {
          episode_stats_over:
            episodeStatsOf(c) === 'steps'
              ? "the group's steps: each rollout's reward once per assistant turn (verl-agent episode_norm_reward, " +
                'compute_mean_std_cross_steps=True)'
              : "the group's rollouts",
          anchor_singleton: 'A^S = 0 (its own mean)',
        }
      : {}),
    ...(m === 'gdpo' && c === 'trl'
      ? { batch: 'the export is one batch; μ_B and σ_B over every valid rollout (TRL: the generation batch)' }
      : {}),
  };
}
