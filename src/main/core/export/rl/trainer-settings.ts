import { supports, TRAINER_SOURCES } from '../advantages/conventions';
import type { AdvantageSettings } from '../advantages/settings';

type Value = string | number | boolean;
/** A trainer's settings for the package's method: each key with its value and where the value comes from. */
export type TrainerBlock = {
  target: string;
  settings: Record<string, Value | Value[]>;
  provenance: Record<string, string>;
  notes: string[];
};
export type TrainerSettings = { verl: TrainerBlock | null; trl: TrainerBlock | null };

/** The loss aggregation when the paper fixes none: GRPO's own objective (1/G Σ_i 1/|o_i| Σ_t, arXiv 2402.03300). */
const GRPO_OBJECTIVE = "[ours] GRPO's objective (arXiv 2402.03300): mean over rollouts of each one's token mean";

/**
 * What the trainer needs of the paper's RL settings (formats.md §4): the group size, whether σ normalisation is on,
 * the loss aggregation and Dr.GRPO's fixed 1,536-token denominator — as verl's config keys (verl-agent's for GiGPO)
 * and as TRL `GRPOConfig` kwargs, at the revisions read (conventions.ts). null: the trainer lacks the method.
 */
export function trainerSettings(s: AdvantageSettings): TrainerSettings {
  return {
    verl: supports('verl', s.method) ? verlSettings(s) : null,
    trl: supports('trl', s.method) ? trlSettings(s) : null,
  };
}

function verlSettings(s: AdvantageSettings): TrainerBlock {
  if (s.method === 'gigpo') {
    const v = TRAINER_SOURCES.verlAgent;
    return {
      target: `verl-agent ${v.commit.slice(0, 7)} (its verl/trainer/config/ppo_trainer.yaml, main_ppo)`,
      settings: {
        'algorithm.adv_estimator': 'gigpo',
        'algorithm.gamma': s.gamma,
        'algorithm.gigpo.step_advantage_w': s.omega,
        'algorithm.gigpo.mode': s.mode,
        'algorithm.gigpo.enable_similarity': false,
        'env.rollout.n': s.groupSize,
        'actor_rollout_ref.actor.loss_agg_mode': 'seq-mean-token-mean',
      },
      provenance: {
        'algorithm.gamma': '[ours] γ (formats.md §4.4)',
        'algorithm.gigpo.step_advantage_w': '[paper] ω = 1.0',
        'algorithm.gigpo.mode': '[ours] F_norm',
        'algorithm.gigpo.enable_similarity': '[ours] anchor states are exact keys (anchor-states.ts)',
        'env.rollout.n': '[paper] G: verl-agent groups env.rollout.n environments per task',
        'actor_rollout_ref.actor.loss_agg_mode': GRPO_OBJECTIVE,
      },
      notes: [
        "verl-agent takes the episode μ and σ over the group's steps (compute_mean_std_cross_steps=True) and anchors " +
          "steps by its own observation text, not by this package's state keys: its step groups can differ.",
      ],
    };
  }
  const dr = s.method === 'drgrpo';
  const v = TRAINER_SOURCES.verl;
  return {
    target: `verl ${v.tag} (${v.commit.slice(0, 7)}), python -m verl.trainer.main_ppo`,
    settings: {
      'algorithm.adv_estimator': 'grpo',
      'algorithm.norm_adv_by_std_in_grpo': !dr,
      'actor_rollout_ref.rollout.n': s.groupSize,
      'actor_rollout_ref.actor.loss_agg_mode': dr ? 'seq-mean-token-sum-norm' : 'seq-mean-token-mean',
      ...(dr
        ? {
            'actor_rollout_ref.actor.loss_scale_factor': s.drGrpoTokens,
            'actor_rollout_ref.actor.use_kl_loss': false,
            'algorithm.use_kl_in_reward': false,
          }
        : {}),
    },
    provenance: {
      'algorithm.norm_adv_by_std_in_grpo': dr ? '[paper] Dr.GRPO: no σ normalisation' : '[paper] GRPO divides by σ',
      'actor_rollout_ref.rollout.n': '[paper] G, rollouts per task',
      'actor_rollout_ref.actor.loss_agg_mode': dr
        ? '[paper] Dr.GRPO: token sum over a fixed denominator'
        : GRPO_OBJECTIVE,
      ...(dr
        ? {
            'actor_rollout_ref.actor.loss_scale_factor': '[paper] the fixed 1,536-token denominator',
            'actor_rollout_ref.actor.use_kl_loss': '[paper] Dr.GRPO without KL loss',
            'algorithm.use_kl_in_reward': '[paper] Dr.GRPO without KL',
          }
        : {}),
    },
    notes: [`verl's σ is torch.std (n − 1) plus ε = 1e-6, and a one-rollout group gets μ = 0, σ = 1 (${v.advantage}).`],
  };
}

function trlSettings(s: AdvantageSettings): TrainerBlock {
  const v = TRAINER_SOURCES.trl;
  const dr = s.method === 'drgrpo';
  const gdpo = s.method === 'gdpo';
  return {
    target: `TRL ${v.tag} (${v.commit.slice(0, 7)}): GRPOConfig(**kwargs)`,
    settings: {
      num_generations: s.groupSize,
      scale_rewards: dr ? 'none' : 'group',
      loss_type: dr ? 'dr_grpo' : 'grpo',
      ...(dr ? { max_completion_length: s.drGrpoTokens, beta: 0 } : {}),
      ...(gdpo
        ? {
            multi_objective_aggregation: 'normalize_then_sum',
            reward_weights: [s.weights.completion, s.weights.safety, s.weights.robustness],
          }
        : {}),
    },
    provenance: {
      num_generations: '[paper] G, rollouts per task',
      scale_rewards: dr ? '[paper] Dr.GRPO: no σ normalisation' : '[paper] GRPO divides by the group σ',
      loss_type: dr ? '[paper] Dr.GRPO: divides by max_completion_length' : GRPO_OBJECTIVE,
      ...(dr
        ? {
            max_completion_length: '[paper] the fixed 1,536-token denominator (TRL also caps completions at it)',
            beta: '[paper] Dr.GRPO without KL',
          }
        : {}),
      ...(gdpo
        ? {
            multi_objective_aggregation: '[paper] GDPO: normalise each dimension, then sum',
            reward_weights: '[ours] in the order completion, safety, robustness: one reward function each',
          }
        : {}),
    },
    notes: [
      "TRL's σ is n − 1 (trl/trainer/utils.py nanstd) plus ε = 1e-4; a rollout whose reward functions all return " +
        'None is left out of the baseline and gets advantage 0.',
    ],
  };
}

/** verl's overrides as Hydra command-line arguments, one per line (`main_ppo $(cat verl/trainer_overrides.txt)`). */
/**
 * The verl settings that join the package's own overrides (train_overrides.yaml and the README command), so one
 * command carries them; GiGPO's are verl-agent's (another trainer, its own main_ppo) and stay in their file.
 */
export function verlExtraOverrides(t: TrainerSettings): Record<string, string | number | boolean> {
  if (!t.verl || t.verl.settings['algorithm.adv_estimator'] === 'gigpo') return {};
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(t.verl.settings)) if (!Array.isArray(v)) out[k] = v;
  return out;
}

export function verlOverridesText(b: TrainerBlock): string {
  const lines = Object.entries(b.settings).map(([k, v]) => `${k}=${Array.isArray(v) ? `[${v.join(',')}]` : v}`);
  return `${lines.join('\n')}\n`;
}
