import { type Normaliser, normalise, paperNormaliser } from './group-stats';
import { drGrpoGroup, grpoGroup, type ScalarGroup } from './grpo';

export type GigpoSettings = {
  /** Discount of the step return G_{i,t} = γ^{T_i−1−t}·R_i (sparse terminal reward). */
  gamma: number;
  /** Weight of the step-level advantage (the paper: 1.0). */
  omega: number;
  /** verl-agent's F_norm: divide by σ (floored) or by 1. */
  mode: 'mean_std_norm' | 'mean_norm';
  /** σ estimator, guard and singleton rule (default: the paper's). Anchor groups of one step always get A^S = 0. */
  normaliser?: Normaliser;
  /**
   * What the episode-level μ and σ are taken over: the group's rollouts (the paper, formats.md §4.4), or its steps —
   * each rollout's reward once per assistant turn, as verl-agent's episode_norm_reward does with its default
   * compute_mean_std_cross_steps=True (a rollout without a turn counts once).
   */
  episodeStats?: 'rollouts' | 'steps';
};

/** A rollout of the group: its episode reward (null = invalid) and the anchor key of each step. */
export type GigpoRolloutIn = { reward: number | null; stepKeys: readonly string[] };

export type GigpoStep = {
  key: string;
  /** G_{i,t}. */
  ret: number;
  /** |U(s)|: how many steps of the group's valid rollouts share this state (1 = singleton). */
  anchorSize: number;
  /** A^S_{i,t}: 0 for a singleton anchor group. */
  stepAdvantage: number;
  /** A^E_i + ω·A^S_{i,t}: what every token of this assistant turn receives. */
  advantage: number;
};

export type GigpoGroup = ScalarGroup & { steps: (GigpoStep[] | null)[] };

/**
 * GiGPO (arXiv 2505.10978; formats.md §4.4): episode-level advantages as GRPO (mean_std_norm) or
 * Dr.GRPO (mean_norm) over the group, plus step-level advantages within anchor groups — the steps
 * of the group's valid rollouts taken in an identical environment state (same key). A state reached
 * by one step only gets A^S = 0, so GiGPO falls back to episode advantages where states never repeat.
 */
export function gigpoGroup(rollouts: readonly GigpoRolloutIn[], s: GigpoSettings): GigpoGroup {
  const n = s.normaliser ?? paperNormaliser();
  const scale = s.mode === 'mean_std_norm';
  const rewards = rollouts.map((r) => (r.reward !== null && Number.isFinite(r.reward) ? r.reward : null));
  const episode = episodeAdvantages(rollouts, rewards, n, scale, s.episodeStats ?? 'rollouts');
  if (!episode.valid) return { ...episode, steps: rollouts.map(() => null) };
  const returns = rollouts.map((r, i) => {
    const R = rewards[i];
    if (R === null || R === undefined) return null;
    const T = r.stepKeys.length;
    return r.stepKeys.map((_, t) => s.gamma ** (T - 1 - t) * R);
  });
  const anchors = new Map<string, { i: number; t: number }[]>();
  rollouts.forEach((r, i) => {
    if (!returns[i]) return;
    r.stepKeys.forEach((key, t) => {
      const list = anchors.get(key);
      if (list) list.push({ i, t });
      else anchors.set(key, [{ i, t }]);
    });
  });
  const stepAdv = new Map<string, number>();
  for (const members of anchors.values()) {
    if (members.length < 2) continue;
    const gs = members.map(({ i, t }) => returns[i]![t]!);
    const { values } = normalise(gs, n, scale);
    members.forEach(({ i, t }, k) => stepAdv.set(`${i}:${t}`, values[k]!));
  }
  const steps = rollouts.map((r, i) => {
    const ret = returns[i];
    if (!ret) return null;
    const aE = episode.advantages[i]!;
    return r.stepKeys.map((key, t) => {
      const aS = stepAdv.get(`${i}:${t}`) ?? 0;
      return {
        key,
        ret: ret[t]!,
        anchorSize: anchors.get(key)!.length,
        stepAdvantage: aS,
        advantage: aE + s.omega * aS,
      };
    });
  });
  return { ...episode, steps };
}

/** A^E: GRPO (mean_std_norm) or Dr.GRPO (mean_norm) over the rollouts, or over their steps (verl-agent). */
function episodeAdvantages(
  rollouts: readonly GigpoRolloutIn[],
  rewards: readonly (number | null)[],
  n: Normaliser,
  scale: boolean,
  over: 'rollouts' | 'steps',
): ScalarGroup {
  const estimate = scale ? grpoGroup : drGrpoGroup;
  if (over === 'rollouts') return estimate(rewards, n);
  const first: number[] = [];
  const rows: (number | null)[] = [];
  rewards.forEach((r, i) => {
    first.push(rows.length);
    if (r === null) rows.push(null);
    else for (let t = 0; t < Math.max(rollouts[i]!.stepKeys.length, 1); t++) rows.push(r);
  });
  const g = estimate(rows, n);
  return { ...g, advantages: first.map((k) => g.advantages[k] ?? null) };
}
