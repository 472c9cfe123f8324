import { describe, expect, it } from 'vitest';
import { defaultConvention, normaliserOf, unsupportedReason } from '../../src/main/core/export/advantages/conventions';
import { gdpoBatch } from '../../src/main/core/export/advantages/gdpo';
import { gigpoGroup } from '../../src/main/core/export/advantages/gigpo';
import { drGrpoGroup, grpoGroup } from '../../src/main/core/export/advantages/grpo';

/**
 * Golden values: each trainer's formula redone by hand, and checked with numpy (float64) — verl v0.9.0
 * compute_grpo_outcome_advantage: (r − mean) / (torch.std (n − 1) + 1e-6), a one-rollout group μ = 0, σ = 1;
 * TRL v1.9.0: (r − nanmean) / (nanstd (n − 1) + 1e-4), NaN → 0; verl-agent 2716b30 GiGPO.
 */
const verl = normaliserOf('verl', 0.05);
const trl = normaliserOf('trl', 0.05);
const paper = normaliserOf('paper', 0.05);

const close = (got: (number | null)[], want: (number | null)[], digits = 12) => {
  expect(got).toHaveLength(want.length);
  got.forEach((g, i) => (want[i] === null ? expect(g).toBeNull() : expect(g).toBeCloseTo(want[i]!, digits)));
};

describe('GRPO per convention', () => {
  it('verl, 3 rollouts [1, 0.5, 0]: μ 0.5, torch.std √((0.25 + 0 + 0.25)/2) = 0.5 → ±0.5/(0.5 + 1e-6)', () => {
    const g = grpoGroup([1, 0.5, 0], verl);
    close(g.advantages, [0.5 / 0.500001, 0, -0.5 / 0.500001]);
    close(g.advantages, [0.999998000004, 0, -0.999998000004]);
    expect([g.mean, g.std]).toEqual([0.5, 0.5]);
  });
  it('verl, [0.96, 0, 0.2] (numpy: 1.131968737036389, −0.76342077614082, −0.368547960895568)', () => {
    const mu = 1.16 / 3;
    const sd = Math.sqrt(((0.96 - mu) ** 2 + mu ** 2 + (0.2 - mu) ** 2) / 2);
    const g = grpoGroup([0.96, 0, 0.2], verl);
    close(g.advantages, [(0.96 - mu) / (sd + 1e-6), -mu / (sd + 1e-6), (0.2 - mu) / (sd + 1e-6)]);
    close(g.advantages, [1.131968737036389, -0.76342077614082, -0.368547960895568]);
  });
  it('TRL, the same group: ε 1e-4 (numpy: 1.131747523352696, −0.763271585516934, −0.368475937835761)', () => {
    close(grpoGroup([0.96, 0, 0.2], trl).advantages, [1.131747523352696, -0.763271585516934, -0.368475937835761]);
  });
  it('formats.md §4.1: [1,1,0,0,0,0,0,0] is +1.732/−0.577 (paper), +1.620/−0.540 (verl), +1.6198/−0.5399 (TRL)', () => {
    const r = [1, 1, 0, 0, 0, 0, 0, 0];
    close(grpoGroup(r, paper).advantages.slice(1, 3), [Math.sqrt(3), -1 / Math.sqrt(3)]);
    close(grpoGroup(r, verl).advantages.slice(1, 3), [1.620181674609526, -0.540060558203175]);
    close(grpoGroup(r, trl).advantages.slice(1, 3), [1.619835250194277, -0.539945083398092]);
  });
  it('near-ties: the paper floors σ (−0.05 / +0.35), the trainers do not (verl −0.3535 / +2.4745)', () => {
    const r = [0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.92];
    close(grpoGroup(r, paper).advantages.slice(6), [-0.05, 0.35]);
    close(grpoGroup(r, verl).advantages.slice(6), [-0.35350339766335, 2.474523783643384], 9);
    close(grpoGroup(r, trl).advantages.slice(6), [-0.348623115216325, 2.440361806514211], 9);
  });
  it('a singleton: paper and TRL give 0 (no signal), verl μ = 0, σ = 1 → r / (1 + 1e-6); all stay valid', () => {
    expect(grpoGroup([0.7, null], paper)).toMatchObject({ valid: true, noSignal: true, advantages: [0, null] });
    expect(grpoGroup([0.7], trl)).toMatchObject({ valid: true, noSignal: true, advantages: [0], std: null });
    const v = grpoGroup([null, 0.7], verl);
    expect(v).toMatchObject({ valid: true, noSignal: false, mean: 0, std: 1 });
    close(v.advantages, [null, 0.6999993000007]);
    expect(drGrpoGroup([0.7], verl).advantages).toEqual([0.7]);
    expect(drGrpoGroup([0.7], trl).advantages).toEqual([0]);
  });
  it('all equal: exactly 0 in every convention, the group valid and without signal', () => {
    for (const n of [paper, verl, trl]) {
      expect(grpoGroup([0.3, 0.3, 0.3], n)).toMatchObject({ advantages: [0, 0, 0], valid: true, noSignal: true });
      expect(drGrpoGroup([1, 1], n).advantages).toEqual([0, 0]);
    }
  });
  it('no valid rollout: the group is invalid', () => {
    for (const n of [paper, verl, trl]) expect(grpoGroup([null, null], n)).toMatchObject({ valid: false });
  });
  it('Dr.GRPO reports the σ of its convention but never divides by it', () => {
    const g = drGrpoGroup([1, 0.5, 0], verl);
    expect(g.std).toBe(0.5);
    close(g.advantages, [0.5, 0, -0.5]);
  });
});

describe("GDPO in TRL's convention (normalize_then_sum)", () => {
  const rows = [
    { completion: 1, safety: 1 },
    { completion: 0.5, safety: 1 },
    { completion: 0.5, safety: 0 },
    { completion: 0, safety: 1 },
  ];
  const equal = { completion: 1, safety: 1 };
  it('per dimension (x − μ)/(σ_{n−1} + 1e-4), summed, then over the batch (numpy golden values)', () => {
    const b = gdpoBatch([rows], equal, trl);
    close(b.groups[0]!.combined, [1.72434496, 0.49990002, -1.49970006, -0.72454492], 7);
    close(b.groups[0]!.advantages, [1.21948103, 0.35353633, -1.06060899, -0.51240837], 7);
  });
  it('a singleton group: its dimensions are NaN in TRL, summed as 0; it joins the batch with S = 0', () => {
    const b = gdpoBatch([rows, [rows[1]!]], equal, trl);
    expect(b.groups[1]).toMatchObject({ valid: true, noSignal: true, combined: [0], advantages: [0] });
    close(b.groups[0]!.advantages, [1.40812, 0.40822412, -1.22467237, -0.59167175], 6);
  });
});

describe("GiGPO in verl-agent's convention", () => {
  // R = 1, 0, 1; γ 0.5; s0 shared by all, sA by the first two (the same group as advantages.test.ts).
  const group = [
    { reward: 1, stepKeys: ['s0', 'sA', 'sB'] },
    { reward: 0, stepKeys: ['s0', 'sA'] },
    { reward: 1, stepKeys: ['s0', 'sC'] },
  ];
  const settings = { gamma: 0.5, omega: 1, normaliser: verl, episodeStats: 'steps' as const };

  it('mean_std_norm: episode μ, σ over the 7 step rows [1,1,1,0,0,1,1]; anchor groups with n − 1 and ε', () => {
    const g = gigpoGroup(group, { ...settings, mode: 'mean_std_norm' });
    // μ 5/7, σ √(70/294) = 0.48795 → A^E = (2/7)/(σ + 1e-6), −(5/7)/(σ + 1e-6).
    close(g.advantages, [0.585538843771579, -1.4638471094289478, 0.585538843771579]);
    // s0: returns .25, 0, .5 → σ 0.25 → 0, ∓0.999996; sA: .5, 0 → ±0.25/(0.35355 + 1e-6); sB, sC alone → 0.
    close(
      g.steps.flatMap((s) => s!.map((x) => x.stepAdvantage)),
      [0, 0.7071047811922043, 0, -0.9999960000160001, -0.7071047811922043, 0.9999960000160001, 0],
    );
    close(
      g.steps.flatMap((s) => s!.map((x) => x.advantage)),
      [
        0.585538843771579, 1.2926436249637834, 0.585538843771579, -2.463843109444948, -2.170951890621152,
        1.5855348437875791, 0.585538843771579,
      ],
    );
  });
  it('mean_norm: episode r − 5/7, step G − mean(anchor group)', () => {
    const g = gigpoGroup(group, { ...settings, mode: 'mean_norm' });
    close(g.advantages, [2 / 7, -5 / 7, 2 / 7]);
    close(
      g.steps.flatMap((s) => s!.map((x) => x.stepAdvantage)),
      [0, 0.25, 0, -0.25, -0.25, 0.25, 0],
    );
  });
  it('a lone rollout of one step gets μ = 0, σ = 1; of three equal steps, 0 (σ of equal rows is 0)', () => {
    const one = gigpoGroup([{ reward: 0.5, stepKeys: ['a'] }], { ...settings, mode: 'mean_std_norm' });
    close(one.advantages, [0.5 / 1.000001]);
    const three = gigpoGroup([{ reward: 0.5, stepKeys: ['a', 'b', 'c'] }], { ...settings, mode: 'mean_std_norm' });
    expect(three.advantages).toEqual([0]);
    expect(three.noSignal).toBe(true);
  });
  it("the paper's convention takes the episode statistics over rollouts, as before", () => {
    const g = gigpoGroup(group, { gamma: 0.5, omega: 1, mode: 'mean_std_norm' });
    close(g.advantages, [Math.SQRT1_2, -Math.SQRT2, Math.SQRT1_2], 9);
  });
});

describe('which trainer implements what', () => {
  it('verl lacks GDPO, TRL lacks GiGPO; the default is verl, TRL for GDPO', () => {
    expect(unsupportedReason('verl', 'gdpo')).toMatch(/verl v0\.9\.0 has no gdpo.*trl or paper|paper or trl/);
    expect(unsupportedReason('trl', 'gigpo')).toMatch(/GiGPO lives in verl-agent/);
    expect(unsupportedReason('paper', 'gdpo')).toBeNull();
    expect(['grpo', 'drgrpo', 'gigpo', 'gdpo'].map((m) => defaultConvention(m as never))).toEqual([
      'verl',
      'verl',
      'verl',
      'trl',
    ]);
  });
});
